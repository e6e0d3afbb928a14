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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP relay on a free loopback port between a node and its PostgreSQL server, which a test can
 * cut (every connection closed, new ones refused) and restore, as if the database went away.
 */
public final class TcpProxy implements AutoCloseable {
    private static final Pattern HOST_PORT = Pattern.compile("//([^:/?]+):(\\d+)/");

    private final String targetHost;
    private final int targetPort;
    private final int port;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private volatile ServerSocket listener;

    private TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
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
        return new TcpProxy(matcher.group(1), Integer.parseInt(matcher.group(2)));
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
                    threads.execute(() -> pump(client, upstream));
                    threads.execute(() -> pump(upstream, client));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    private static void pump(Socket from, Socket to) {
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            // One side closed: close both below.
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
