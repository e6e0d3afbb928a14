package dev.pulseledger.http.edge;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.http.DirectHandler;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.jspecify.annotations.Nullable;

/**
 * One connection as Helidon's HTTP/1.1 code sees it: it reads only bytes that {@link RequestFraming}
 * has passed, one request at a time, and nothing more once a response has said the connection closes.
 * Helidon on its own skips the two bytes after a chunk without looking at them, and goes on reading
 * requests after a {@code Connection: close} (docs/SECURITY.md).
 */
final class FramedConnection implements ConnectionContext {
    private static final byte[] NOTHING = new byte[0];

    private final ConnectionContext socket;
    private final DataReader source;
    private final DataReader reader;
    private final RequestFraming framing;
    private byte[] pending = NOTHING;
    private int position;
    private int requestsStarted = 1;
    private int requestLinesRead;
    private volatile boolean responseSaidClose;

    FramedConnection(ConnectionContext socket, int maxHeadBytes) {
        this.socket = socket;
        this.framing = new RequestFraming(maxHeadBytes);
        this.source = socket.dataReader();
        this.reader = DataReader.create(this::nextBytes);
    }

    /** Called as a response's headers are written. */
    void responding(boolean connectionClose) {
        responseSaidClose |= connectionClose;
    }

    /**
     * Called as a request line has been read. Helidon reads one without asking for bytes only from
     * what is left of the last request (a body nobody read, behind a response that closes the
     * connection): that is never served as a request.
     */
    void requestLineRead() {
        if (++requestLinesRead > requestsStarted) {
            throw new CloseConnectionException("The connection closes after the last response");
        }
    }

    /** The next bytes Helidon may read, or null (the connection closes) when it may read no more. */
    private byte @Nullable [] nextBytes() {
        while (true) {
            if (responseSaidClose) {
                return null;
            }
            if (framing.complete()) {
                if (framing.closeRequested()) {
                    return null;
                }
                framing.next();
                requestsStarted++;
            }
            Optional<RequestFraming.Fault> fault = framing.fault();
            if (fault.isPresent()) {
                throw refused(fault.get());
            }
            if (position == pending.length) {
                source.ensureAvailable();
                pending = source.readBytes(source.available());
                position = 0;
            }
            int end = framing.scan(pending, position, pending.length);
            if (end > position) {
                byte[] passed = Arrays.copyOfRange(pending, position, end);
                position = end;
                return passed;
            }
        }
    }

    private static RequestException refused(RequestFraming.Fault fault) {
        return RequestException.builder()
                .type(DirectHandler.EventType.BAD_REQUEST)
                .status(Status.BAD_REQUEST_400)
                .setKeepAlive(false)
                .message(fault == RequestFraming.Fault.HEAD ? StrictHttp1.MALFORMED_HEAD : StrictHttp1.MALFORMED_BODY)
                .build();
    }

    @Override
    public DataReader dataReader() {
        return reader;
    }

    @Override
    public DataWriter dataWriter() {
        return socket.dataWriter();
    }

    @Override
    public ListenerContext listenerContext() {
        return socket.listenerContext();
    }

    @Override
    public ExecutorService executor() {
        return socket.executor();
    }

    @Override
    public Router router() {
        return socket.router();
    }

    @Override
    public Optional<ProxyProtocolData> proxyProtocolData() {
        return socket.proxyProtocolData();
    }

    @Override
    public HelidonSocket serverSocket() {
        return socket.serverSocket();
    }

    @Override
    public PeerInfo remotePeer() {
        return socket.remotePeer();
    }

    @Override
    public PeerInfo localPeer() {
        return socket.localPeer();
    }

    @Override
    public boolean isSecure() {
        return socket.isSecure();
    }

    @Override
    public String socketId() {
        return socket.socketId();
    }

    @Override
    public String childSocketId() {
        return socket.childSocketId();
    }
}
