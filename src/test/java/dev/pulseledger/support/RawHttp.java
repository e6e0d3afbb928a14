package dev.pulseledger.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Sends bytes that need not be valid HTTP over a fresh connection and reads whatever status comes back. */
public final class RawHttp {
    private static final Pattern STATUS_LINE = Pattern.compile("^HTTP/1\\.1 (\\d{3}) ");
    private static final Pattern RESPONSE_STATUS = Pattern.compile("HTTP/1\\.1 (\\d{3}) ");
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    /** How soon after its last byte the server must close a connection it has said it closes. */
    public static final Duration CLOSE_WITHIN = Duration.ofSeconds(1);

    private RawHttp() {}

    /**
     * Writes the request, ends the connection's sending side (so a short body cannot keep the server
     * waiting), and returns the status of the response, or empty when the server closed without one.
     */
    public static Optional<Integer> status(int port, byte[] request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) READ_TIMEOUT.toMillis());
            try {
                socket.getOutputStream().write(request);
                socket.shutdownOutput();
            } catch (SocketException e) {
                // The server may answer and close before it has read everything: read its answer below.
            }
            return statusOf(socket.getInputStream());
        }
    }

    /**
     * Writes the bytes and keeps the sending side open, so that only the server can end the
     * connection, then reads until the server closes it or sends nothing for {@link #CLOSE_WITHIN}.
     */
    public static Exchange exchange(int port, byte[] request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) READ_TIMEOUT.toMillis());
            try {
                socket.getOutputStream().write(request);
            } catch (SocketException e) {
                // The server may answer and close before it has read everything: read its answer below.
            }
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            while (true) {
                int read;
                try {
                    read = in.read(buffer);
                } catch (SocketTimeoutException e) {
                    return new Exchange(received.toString(StandardCharsets.ISO_8859_1), false);
                } catch (SocketException e) {
                    read = -1;
                }
                if (read < 0) {
                    return new Exchange(received.toString(StandardCharsets.ISO_8859_1), true);
                }
                received.write(buffer, 0, read);
                socket.setSoTimeout((int) CLOSE_WITHIN.toMillis());
            }
        }
    }

    /** What came back on one connection, and whether the server closed it within {@link #CLOSE_WITHIN}. */
    public record Exchange(String text, boolean closed) {
        /** The status of every response, in order. */
        public List<Integer> statuses() {
            return RESPONSE_STATUS
                    .matcher(text)
                    .results()
                    .map(match -> Integer.parseInt(match.group(1)))
                    .toList();
        }
    }

    private static Optional<Integer> statusOf(InputStream in) throws IOException {
        byte[] start;
        try {
            start = in.readNBytes(32);
        } catch (SocketException e) {
            return Optional.empty();
        }
        Matcher matcher = STATUS_LINE.matcher(new String(start, StandardCharsets.ISO_8859_1));
        return matcher.find() ? Optional.of(Integer.parseInt(matcher.group(1))) : Optional.empty();
    }
}
