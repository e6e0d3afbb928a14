package dev.pulseledger.contract;

import dev.pulseledger.support.TestNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** Sends bytes no well-behaved HTTP client would, and returns whatever the server answers. */
final class RawHttp {
    private static final int TIMEOUT_MILLIS = 10_000;
    private static final int MAX_RESPONSE_BYTES = 1 << 20;

    private RawHttp() {}

    static String exchange(TestNode node, String request) {
        URI base = URI.create(node.baseUrl());
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(TIMEOUT_MILLIS);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            return new String(in.readNBytes(MAX_RESPONSE_BYTES), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
