package dev.pulseledger.http.edge;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Follows the framing of one HTTP/1.1 request at a time, byte by byte, and stops at the first byte
 * that is not exactly well-formed (RFC 9112): a CR or LF alone, a folded header line, a body length
 * declared twice or in two ways, a chunk size that is not plain hex, a chunk without its CRLF, a
 * trailer. It never looks past the end of the request, so the bytes behind it wait until the server
 * asks for the next one.
 */
final class RequestFraming {
    /** What is wrong, and so which problem answers it. */
    enum Fault {
        /** The request line or a header line: 400 {@code bad_request}. */
        HEAD,
        /** How long the body is, or the body's chunked encoding: 400 {@code invalid_body}. */
        BODY
    }

    /** Room beyond the server's own head limits, so that the server (414, 431) refuses a long head first. */
    static final int HEAD_MARGIN_BYTES = 1024;

    /** The server reads chunk sizes as an {@code int}; anything larger is not a size it can honour. */
    private static final long MAX_CHUNK_SIZE = Integer.MAX_VALUE;

    private static final int MAX_CHUNK_SIZE_DIGITS = 16;
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,18}");
    /** The bytes of a token (RFC 9110 tchar), such as a header's name. */
    private static final boolean[] TOKEN_BYTES = tokenBytes("!#$%&'*+.^_`|~-");

    private static final byte[] CONTENT_LENGTH = "content-length".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRANSFER_ENCODING = "transfer-encoding".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONNECTION = "connection".getBytes(StandardCharsets.US_ASCII);
    private static final byte CR = '\r';
    private static final byte LF = '\n';

    private enum State {
        LINE,
        LINE_LF,
        LENGTH_BODY,
        CHUNK_SIZE,
        CHUNK_SIZE_LF,
        CHUNK_DATA,
        CHUNK_DATA_CR,
        CHUNK_DATA_LF,
        LAST_CHUNK_CR,
        LAST_CHUNK_LF,
        COMPLETE,
        FAILED
    }

    /* The line being read, without its CRLF: a plain array, since every header byte passes here. */
    private byte[] line = new byte[256];
    private int lineLength;
    private State state;
    private @Nullable Fault fault;
    private int headBytes;
    private boolean requestLineSeen;
    private boolean closeRequested;
    private boolean chunked;
    private long contentLength;
    private boolean lengthUnclear;
    private long remaining;
    private int chunkSizeDigits;

    private final int maxHeadBytes;

    /** {@code maxHeadBytes}: a head (request line and headers) longer than this is a fault. */
    RequestFraming(int maxHeadBytes) {
        this.maxHeadBytes = maxHeadBytes;
        next();
    }

    /** Starts on the next request of the connection. */
    void next() {
        lineLength = 0;
        state = State.LINE;
        fault = null;
        headBytes = 0;
        requestLineSeen = false;
        closeRequested = false;
        chunked = false;
        contentLength = -1;
        lengthUnclear = false;
        remaining = 0;
        chunkSizeDigits = 0;
    }

    /**
     * Reads {@code bytes[from, to)} and returns where the well-formed part of the request ends in
     * it: at {@code to}, at the end of the request (see {@link #complete}), or at the first byte of a
     * fault (see {@link #fault}).
     */
    int scan(byte[] bytes, int from, int to) {
        int i = from;
        while (i < to && state != State.COMPLETE && state != State.FAILED) {
            if (state == State.LENGTH_BODY || state == State.CHUNK_DATA) {
                int take = (int) Math.min(remaining, to - i);
                remaining -= take;
                i += take;
                if (remaining == 0) {
                    state = state == State.LENGTH_BODY ? State.COMPLETE : State.CHUNK_DATA_CR;
                }
            } else if (accept(bytes[i])) {
                i++;
            }
        }
        return i;
    }

    boolean complete() {
        return state == State.COMPLETE;
    }

    Optional<Fault> fault() {
        return Optional.ofNullable(fault);
    }

    /** The request said {@code Connection: close}. */
    boolean closeRequested() {
        return closeRequested;
    }

    /** Takes one byte of the head or of the chunked framing; false (and a fault) if it does not fit. */
    private boolean accept(byte b) {
        return switch (state) {
            case LINE -> headByte(b);
            case LINE_LF -> b == LF ? endOfLine() : fail(Fault.HEAD);
            case CHUNK_SIZE -> chunkSizeByte(b);
            case CHUNK_SIZE_LF -> b == LF ? startChunk() : fail(Fault.BODY);
            case CHUNK_DATA_CR -> expect(b, CR, State.CHUNK_DATA_LF);
            case CHUNK_DATA_LF -> b == LF ? nextChunkSize() : fail(Fault.BODY);
            case LAST_CHUNK_CR -> expect(b, CR, State.LAST_CHUNK_LF);
            case LAST_CHUNK_LF -> expect(b, LF, State.COMPLETE);
            default -> throw new IllegalStateException("No byte is read in state " + state);
        };
    }

    private boolean headByte(byte b) {
        if (++headBytes > maxHeadBytes || b == LF) {
            return fail(Fault.HEAD);
        }
        if (b == CR) {
            state = State.LINE_LF;
        } else {
            if (lineLength == line.length) {
                line = Arrays.copyOf(line, Math.min(2 * line.length, maxHeadBytes));
            }
            line[lineLength++] = b;
        }
        return true;
    }

    private boolean endOfLine() {
        headBytes++;
        int length = lineLength;
        lineLength = 0;
        state = State.LINE;
        if (!requestLineSeen) {
            // The server checks the request line itself; only its line ending matters here.
            requestLineSeen = true;
            return true;
        }
        return length == 0 ? endOfHead() : header(length);
    }

    /**
     * Reads the header line in {@code line[0, length)}. Only the three headers that frame a request are
     * made into strings: every header of every request passes here.
     */
    private boolean header(int length) {
        int colon = 0;
        while (colon < length && line[colon] != ':') {
            if (!isTokenByte(line[colon])) {
                // Also a folded line (obs-fold), which starts with a space or tab.
                return fail(Fault.HEAD);
            }
            colon++;
        }
        if (colon == 0 || colon == length) {
            return fail(Fault.HEAD);
        }
        if (nameIs(colon, CONTENT_LENGTH)) {
            String value = value(colon, length);
            lengthUnclear |= contentLength >= 0 || !DIGITS.matcher(value).matches();
            contentLength = lengthUnclear ? 0 : Long.parseLong(value);
        } else if (nameIs(colon, TRANSFER_ENCODING)) {
            lengthUnclear |= chunked || !value(colon, length).equalsIgnoreCase("chunked");
            chunked = true;
        } else if (nameIs(colon, CONNECTION)) {
            for (String option : value(colon, length).split(",", -1)) {
                closeRequested |= option.strip().equalsIgnoreCase("close");
            }
        }
        return true; // other headers do not frame the request
    }

    /** Whether the header name {@code line[0, length)} is {@code lowerCaseName}, in any case. */
    private boolean nameIs(int length, byte[] lowerCaseName) {
        if (length != lowerCaseName.length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            byte b = line[i];
            if ((b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b) != lowerCaseName[i]) {
                return false;
            }
        }
        return true;
    }

    private String value(int colon, int length) {
        return new String(line, colon + 1, length - colon - 1, StandardCharsets.ISO_8859_1).strip();
    }

    private static boolean isTokenByte(byte b) {
        return b >= 0 && TOKEN_BYTES[b];
    }

    private boolean endOfHead() {
        if (lengthUnclear || (chunked && contentLength >= 0)) {
            return fail(Fault.BODY);
        }
        if (chunked) {
            state = State.CHUNK_SIZE;
        } else if (contentLength > 0) {
            remaining = contentLength;
            state = State.LENGTH_BODY;
        } else {
            state = State.COMPLETE;
        }
        return true;
    }

    private boolean chunkSizeByte(byte b) {
        int digit = Character.digit(b, 16);
        if (digit >= 0 && ++chunkSizeDigits <= MAX_CHUNK_SIZE_DIGITS) {
            remaining = remaining * 16 + digit;
            return remaining <= MAX_CHUNK_SIZE || fail(Fault.BODY);
        }
        if (b == CR && chunkSizeDigits > 0 && chunkSizeDigits <= MAX_CHUNK_SIZE_DIGITS) {
            state = State.CHUNK_SIZE_LF;
            return true;
        }
        // Chunk extensions (";name=value") are refused too: nothing here needs them.
        return fail(Fault.BODY);
    }

    private boolean startChunk() {
        state = remaining == 0 ? State.LAST_CHUNK_CR : State.CHUNK_DATA;
        return true;
    }

    private boolean nextChunkSize() {
        remaining = 0;
        chunkSizeDigits = 0;
        state = State.CHUNK_SIZE;
        return true;
    }

    /** A byte the chunked framing requires: a CR or LF after a chunk, or the empty trailer section. */
    private boolean expect(byte b, byte expected, State then) {
        if (b != expected) {
            return fail(Fault.BODY);
        }
        state = then;
        return true;
    }

    private boolean fail(Fault what) {
        state = State.FAILED;
        fault = what;
        return false;
    }

    private static boolean[] tokenBytes(String symbols) {
        boolean[] token = new boolean[128];
        for (char c = '0'; c <= '9'; c++) {
            token[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            token[c] = true;
            token[Character.toUpperCase(c)] = true;
        }
        symbols.chars().forEach(c -> token[c] = true);
        return token;
    }
}
