package dev.pulseledger.support;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Sends bytes that need not be valid HTTP over a fresh connection and reads whatever status comes back. */
public final class RawHttp {
    private static final Pattern STATUS_LINE = Pattern.compile("^HTTP/1\\.1 (\\d{3}) ");
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

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
