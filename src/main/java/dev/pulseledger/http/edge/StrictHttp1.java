package dev.pulseledger.http.edge;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionListener;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.util.List;
import java.util.Set;

/**
 * HTTP/1.1 served by Helidon's own connection code, but over a {@link FramedConnection}: the one
 * protocol this server speaks, with every request framed strictly and {@code Connection: close} kept.
 */
public final class StrictHttp1 implements ServerConnectionSelector {
    /** The message of the 400 for a request refused for its head (DirectErrors answers it as a problem). */
    public static final String MALFORMED_HEAD = "Malformed request head";

    /** The message of the 400 for a request refused for its body's framing. */
    public static final String MALFORMED_BODY = "Malformed request body framing";

    private final ServerConnectionSelector http1;
    private final int maxHeadBytes;

    private StrictHttp1(ServerConnectionSelector http1, int maxHeadBytes) {
        this.http1 = http1;
        this.maxHeadBytes = maxHeadBytes;
    }

    /**
     * The selector for a server; {@code requestListener} hears each request line and header section.
     * (Helidon 4.5.0 drops every listener of a kind once more than one is configured, so there is
     * exactly one of each here.)
     */
    public static StrictHttp1 create(Http1Config.Builder config, Http1ConnectionListener requestListener) {
        Http1Config http1 = config.receiveListeners(List.of(new RequestLines(requestListener)))
                .sendListeners(List.of(new ResponseHeaders()))
                .build();
        return new StrictHttp1(
                Http1ConnectionSelector.builder().config(http1).build(),
                http1.maxPrologueLength() + http1.maxHeadersSize() + RequestFraming.HEAD_MARGIN_BYTES);
    }

    @Override
    public int bytesToIdentifyConnection() {
        return http1.bytesToIdentifyConnection();
    }

    @Override
    public Support supports(BufferData data) {
        return http1.supports(data);
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return http1.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        return http1.connection(new FramedConnection(ctx, maxHeadBytes));
    }

    /** Lets the connection refuse a request line read from the rest of a closed exchange, then passes it on. */
    private record RequestLines(Http1ConnectionListener next) implements Http1ConnectionListener {
        @Override
        public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
            if (ctx instanceof FramedConnection connection) {
                connection.requestLineRead();
            }
            next.prologue(ctx, prologue);
        }

        @Override
        public void headers(ConnectionContext ctx, Headers headers) {
            next.headers(ctx, headers);
        }
    }

    /** Tells the connection whether the response being written closes it. */
    private static final class ResponseHeaders implements Http1ConnectionListener {
        @Override
        public void headers(ConnectionContext ctx, Headers headers) {
            if (ctx instanceof FramedConnection connection) {
                connection.responding(headers.containsToken(HeaderValues.CONNECTION_CLOSE));
            }
        }
    }
}
