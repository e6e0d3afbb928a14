package dev.pulseledger.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
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

    /** Longer heads are refused by the server (414, 431) before this bound is reached. */
    static final int MAX_HEAD_BYTES = ServerSettings.MAX_REQUEST_LINE_BYTES + ServerSettings.MAX_HEADER_BYTES + 1024;

    /** The server reads chunk sizes as an {@code int}; anything larger is not a size it can honour. */
    private static final long MAX_CHUNK_SIZE = Integer.MAX_VALUE;

    private static final int MAX_CHUNK_SIZE_DIGITS = 16;
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,18}");
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
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

    RequestFraming() {
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
        if (++headBytes > MAX_HEAD_BYTES || b == LF) {
            return fail(Fault.HEAD);
        }
        if (b == CR) {
            state = State.LINE_LF;
        } else {
            if (lineLength == line.length) {
                line = Arrays.copyOf(line, Math.min(2 * line.length, MAX_HEAD_BYTES));
            }
            line[lineLength++] = b;
        }
        return true;
    }

    private boolean endOfLine() {
        headBytes++;
        String text = new String(line, 0, lineLength, StandardCharsets.ISO_8859_1);
        lineLength = 0;
        state = State.LINE;
        if (!requestLineSeen) {
            // The server checks the request line itself; only its line ending matters here.
            requestLineSeen = true;
            return true;
        }
        return text.isEmpty() ? endOfHead() : header(text);
    }

    private boolean header(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0 || !TOKEN.matcher(text.substring(0, colon)).matches()) {
            // Also a folded line (obs-fold), which starts with a space or tab.
            return fail(Fault.HEAD);
        }
        String name = text.substring(0, colon).toLowerCase(Locale.ROOT);
        String value = text.substring(colon + 1).strip();
        switch (name) {
            case "content-length" -> {
                lengthUnclear |= contentLength >= 0 || !DIGITS.matcher(value).matches();
                contentLength = lengthUnclear ? 0 : Long.parseLong(value);
            }
            case "transfer-encoding" -> {
                lengthUnclear |= chunked || !value.equalsIgnoreCase("chunked");
                chunked = true;
            }
            case "connection" -> {
                for (String option : value.split(",", -1)) {
                    closeRequested |= option.strip().equalsIgnoreCase("close");
                }
            }
            default -> {
                // Other headers do not frame the request.
            }
        }
        return true;
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
}
