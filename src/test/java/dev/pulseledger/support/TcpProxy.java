package dev.pulseledger.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP relay on a free loopback port between a node and a server (its PostgreSQL, its mail server),
 * which a test can cut (every connection closed, new ones refused) and restore, as if the server went
 * away, or watch through a {@link Tap} that may hold bytes back.
 */
public final class TcpProxy implements AutoCloseable {
    private static final Pattern HOST_PORT = Pattern.compile("//([^:/?]+):(\\d+)/");

    /** Sees each chunk of one relayed connection before it is passed on, and may hold it back a while. */
    public interface Tap {
        /** A chunk from the client, on its way to the server. */
        default void toServer(byte[] bytes, int length) {}

        /** A chunk from the server, on its way to the client. */
        default void toClient(byte[] bytes, int length) throws InterruptedException {}
    }

    /** Chunks of one direction of one connection. */
    @FunctionalInterface
    private interface Chunks {
        void seen(byte[] bytes, int length) throws InterruptedException;
    }

    private final String targetHost;
    private final int targetPort;
    private final Supplier<Tap> taps;
    private final int port;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private volatile ServerSocket listener;

    private TcpProxy(String targetHost, int targetPort, Supplier<Tap> taps) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.taps = taps;
        this.listener = listen(0);
        this.port = listener.getLocalPort();
        accept(listener);
    }

    /** A proxy in front of the server named in a PostgreSQL JDBC URL. */
    public static TcpProxy inFrontOf(String jdbcUrl) throws IOException {
        Matcher matcher = HOST_PORT.matcher(jdbcUrl);
        if (!matcher.find()) {
            throw new IllegalArgumentException("no host:port in " + jdbcUrl);
        }
        return new TcpProxy(matcher.group(1), Integer.parseInt(matcher.group(2)), () -> new Tap() {});
    }

    /** A proxy in front of a server on this machine's loopback, each connection watched by a new tap. */
    public static TcpProxy inFrontOfLoopback(int targetPort, Supplier<Tap> taps) throws IOException {
        return new TcpProxy(InetAddress.getLoopbackAddress().getHostAddress(), targetPort, taps);
    }

    public int port() {
        return port;
    }

    /** The same JDBC URL, pointed at this proxy instead. */
    public String proxied(String jdbcUrl) {
        return HOST_PORT.matcher(jdbcUrl).replaceFirst("//127.0.0.1:" + port + "/");
    }

    /** Closes every relayed connection and refuses new ones until {@link #restore()}. */
    public synchronized void cut() throws IOException {
        listener.close();
        for (Socket socket : sockets) {
            socket.close();
        }
        sockets.clear();
    }

    public synchronized void restore() throws IOException {
        listener = listen(port);
        accept(listener);
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return socket;
    }

    private void accept(ServerSocket server) {
        threads.execute(() -> {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    Socket upstream = new Socket(targetHost, targetPort);
                    sockets.add(client);
                    sockets.add(upstream);
                    Tap tap = taps.get();
                    threads.execute(() -> pump(client, upstream, tap::toServer));
                    threads.execute(() -> pump(upstream, client, tap::toClient));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    private static void pump(Socket from, Socket to, Chunks chunks) {
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            byte[] buffer = new byte[8192];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                chunks.seen(buffer, n);
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // One side closed: close both below.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        cut();
        threads.shutdownNow();
    }
}
