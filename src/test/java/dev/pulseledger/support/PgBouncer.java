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
import java.util.Map;

/**
 * A real PgBouncer (Debian's package) in transaction pooling in front of the test PostgreSQL server, on
 * a free loopback port, with fewer server connections than a node has clients so that sessions are
 * really shared. PgBouncer refuses to run as root, so under root it runs as the postgres user. Without
 * PgBouncer a test is skipped on a workstation but fails under CI.
 */
public final class PgBouncer implements AutoCloseable {
    /** The deploy example this PgBouncer runs, so that the example is known to work. */
    private static final Path EXAMPLE = Path.of("deploy/pgbouncer.ini");
    /** What a test changes in the example: its own addresses, no password file, logs to stdout. */
    private static final Map<String, String> TEST_SETTINGS = Map.of(
            "listen_addr", "127.0.0.1",
            "auth_type", "any",
            "logfile", "",
            "pidfile", "",
            "default_pool_size", "4");

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
        Path binary = ExternalTool.require("pgbouncer", "apt-get install pgbouncer", Path.of("/usr/sbin"))
                .path();
        URI server = URI.create(jdbcUrl.substring("jdbc:".length()));
        int port = freePort();
        Path folder = Files.createTempDirectory("pgbouncer-test");
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path ini = folder.resolve("pgbouncer.ini");
        Files.writeString(ini, testConfig(Files.readAllLines(EXAMPLE), server.getHost(), server.getPort(), port));
        List<String> command = new ArrayList<>(List.of(binary.toString()));
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

    /**
     * The example with the test's settings: any database is served from the test server (as the
     * postgres user, since auth_type any takes no password), and 4 server connections, fewer than a
     * node's pool, so that clients really share sessions.
     */
    private static String testConfig(List<String> example, String serverHost, int serverPort, int port) {
        StringBuilder config = new StringBuilder();
        String section = "";
        for (String line : example) {
            String trimmed = line.trim();
            if (trimmed.startsWith("[")) {
                section = trimmed;
                config.append(line).append('\n');
                if (section.equals("[databases]")) {
                    config.append("* = host=%s port=%d user=postgres\n".formatted(serverHost, serverPort));
                } else {
                    config.append("listen_port = %d\nunix_socket_dir =\n".formatted(port));
                }
                continue;
            }
            String key = trimmed.contains("=")
                    ? trimmed.substring(0, trimmed.indexOf('=')).trim()
                    : "";
            if (key.isEmpty() || key.startsWith(";")) {
                config.append(line).append('\n');
            } else if (section.equals("[pgbouncer]") && TEST_SETTINGS.containsKey(key)) {
                config.append(key).append(" = ").append(TEST_SETTINGS.get(key)).append('\n');
            } else if (section.equals("[pgbouncer]") && !key.equals("auth_file") && !key.equals("listen_port")) {
                config.append(line).append('\n');
            }
        }
        return config.toString();
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
