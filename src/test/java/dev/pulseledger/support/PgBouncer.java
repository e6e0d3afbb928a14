package dev.pulseledger.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A real PgBouncer (Debian's package) in transaction pooling in front of the test PostgreSQL server, on
 * a free loopback port, with fewer server connections than a node has clients so that sessions are
 * really shared. PgBouncer refuses to run as root, so under root it runs as the postgres user.
 */
public final class PgBouncer implements AutoCloseable {
    private static final Path BINARY = Path.of("/usr/sbin/pgbouncer");
    /** Server connections per database and user: fewer than a node's pool, so clients share them. */
    public static final int SERVER_CONNECTIONS = 4;

    private final Process process;
    private final int port;
    private final Path folder;

    private PgBouncer(Process process, int port, Path folder) {
        this.process = process;
        this.port = port;
        this.folder = folder;
    }

    /** Starts PgBouncer in front of the server that {@code jdbcUrl} points at, and waits until it answers. */
    public static PgBouncer inFrontOf(String jdbcUrl) throws IOException {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException(BINARY + " is missing: apt-get install pgbouncer (.ci/run does)");
        }
        URI server = URI.create(jdbcUrl.substring("jdbc:".length()));
        int port = freePort();
        Path folder = Files.createTempDirectory("pgbouncer-test");
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path ini = folder.resolve("pgbouncer.ini");
        Files.writeString(ini, """
                [databases]
                * = host=%s port=%d user=postgres
                [pgbouncer]
                listen_addr = 127.0.0.1
                listen_port = %d
                unix_socket_dir =
                auth_type = any
                pool_mode = transaction
                default_pool_size = %d
                max_client_conn = 200
                ignore_startup_parameters = extra_float_digits
                logfile =
                pidfile =
                """.formatted(server.getHost(), server.getPort(), port, SERVER_CONNECTIONS));
        List<String> command = new ArrayList<>(List.of(BINARY.toString()));
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("-u", "postgres"));
        }
        command.add(ini.toString());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(folder.resolve("pgbouncer.log").toFile())
                .start();
        PgBouncer bouncer = new PgBouncer(process, port, folder);
        Waiting.until("PgBouncer answers on port " + port, bouncer::answers);
        return bouncer;
    }

    /** The same database URL, through PgBouncer. */
    public String proxied(String jdbcUrl) {
        return jdbcUrl.replaceFirst("//[^/]+/", "//127.0.0.1:" + port + "/");
    }

    private boolean answers() {
        if (!process.isAlive()) {
            throw new IllegalStateException("PgBouncer exited: " + log());
        }
        try (Connection connection = DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres&prepareThreshold=0")) {
            return connection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    private String log() {
        try {
            return Files.readString(folder.resolve("pgbouncer.log"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
