import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The replica case's own PostgreSQL: a primary and an asynchronous streaming replica made with initdb and
 * pg_basebackup in the output folder, on free ports (as the postgres user when run as root, since
 * PostgreSQL refuses root), and the CPU time of each server's processes, read from /proc.
 */
final class ReplicaCluster implements AutoCloseable {
    private static final String DATABASE = "pulseledger";
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(5);

    private final Path bin;
    private final Path folder;
    private final int primaryPort;
    private final int replicaPort;

    private ReplicaCluster(Path bin, Path folder, int primaryPort, int replicaPort) {
        this.bin = bin;
        this.folder = folder;
        this.primaryPort = primaryPort;
        this.replicaPort = replicaPort;
    }

    /** Starts both servers and returns once the replica streams. */
    static ReplicaCluster start(Path folder) throws Exception {
        Files.createDirectories(folder);
        ReplicaCluster cluster = new ReplicaCluster(binaries(), folder.toAbsolutePath(), freePort(), freePort());
        try {
            cluster.initialise();
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void initialise() throws Exception {
        if (runsAsRoot()) {
            Processes.run(List.of("chown", "postgres:postgres", folder.toString()), COMMAND_TIMEOUT);
        }
        postgres("initdb", "-D", data("primary"), "-U", "postgres", "--auth=trust", "-E", "UTF8");
        Files.writeString(
                Path.of(data("primary"), "postgresql.conf"),
                """
                listen_addresses = '127.0.0.1'
                port = %d
                unix_socket_directories = '%s'
                wal_level = replica
                max_wal_senders = 4
                max_connections = 200
                shared_buffers = 256MB
                """.formatted(primaryPort, folder),
                StandardOpenOption.APPEND);
        startServer("primary");
        postgres("pg_basebackup", "-h", "127.0.0.1", "-p", Integer.toString(primaryPort), "-U", "postgres",
                "-D", data("replica"), "-X", "stream", "-R");
        Files.writeString(
                Path.of(data("replica"), "postgresql.auto.conf"),
                "port = %d%n".formatted(replicaPort),
                StandardOpenOption.APPEND);
        startServer("replica");
        try (Connection connection = DriverManager.getConnection(url(primaryPort, "postgres"));
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + DATABASE);
        }
        awaitCaughtUp(Duration.ofSeconds(60));
    }

    String primaryUrl() {
        return url(primaryPort, DATABASE);
    }

    String replicaUrl() {
        return url(replicaPort, DATABASE);
    }

    /** Waits until the replica has replayed everything the primary had written when asked. */
    void awaitCaughtUp(Duration timeout) throws Exception {
        String target;
        try (Connection primary = DriverManager.getConnection(primaryUrl());
                Statement statement = primary.createStatement();
                ResultSet rs = statement.executeQuery("SELECT pg_current_wal_lsn()::text")) {
            rs.next();
            target = rs.getString(1);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try (Connection replica = DriverManager.getConnection(replicaUrl());
                    var statement = replica.prepareStatement("SELECT pg_last_wal_replay_lsn() >= ?::pg_lsn")) {
                statement.setString(1, target);
                try (ResultSet rs = statement.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return;
                    }
                }
            } catch (SQLException e) {
                // not accepting connections yet
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the replica did not catch up within " + timeout);
    }

    /** CPU ticks (user + system) of the primary's postmaster and every process it started. */
    long primaryTicks() throws IOException {
        return ticks("primary");
    }

    long replicaTicks() throws IOException {
        return ticks("replica");
    }

    private long ticks(String server) throws IOException {
        long pid = Long.parseLong(Files.readAllLines(Path.of(data(server), "postmaster.pid")).get(0).strip());
        ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
        long ticks = Cpu.ticksOrZero(pid);
        for (ProcessHandle child : postmaster.descendants().toList()) {
            ticks += Cpu.ticksOrZero(child.pid());
        }
        return ticks;
    }

    private void startServer(String server) throws Exception {
        postgres("pg_ctl", "-D", data(server), "-l", folder.resolve(server + ".log").toString(), "-w", "start");
    }

    private String data(String server) {
        return folder.resolve(server).toString();
    }

    private void postgres(String program, String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        if (runsAsRoot()) {
            command.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        command.add(bin.resolve(program).toString());
        command.addAll(List.of(arguments));
        Processes.run(command, COMMAND_TIMEOUT);
    }

    private static String url(int port, String database) {
        return "jdbc:postgresql://127.0.0.1:%d/%s?user=postgres".formatted(port, database);
    }

    /** The newest installed PostgreSQL's server programs (Debian keeps them out of PATH). */
    private static Path binaries() throws IOException {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.filter(version -> version.getFileName().toString().matches("\\d+"))
                    .max(Comparator.comparingInt(version -> Integer.parseInt(version.getFileName().toString())))
                    .map(version -> version.resolve("bin"))
                    .filter(folder -> Files.isExecutable(folder.resolve("initdb")))
                    .orElseThrow(() -> new IllegalStateException(
                            "the replica case needs PostgreSQL's server programs (apt-get install postgresql)"));
        }
    }

    private static boolean runsAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Stops both servers and removes their data; their logs stay in the output folder. */
    @Override
    public void close() throws IOException {
        for (String server : List.of("replica", "primary")) {
            if (Files.exists(Path.of(data(server), "postmaster.pid"))) {
                try {
                    postgres("pg_ctl", "-D", data(server), "stop", "-m", "fast", "-w");
                } catch (Exception e) {
                    System.out.println("  could not stop the " + server + ": " + e.getMessage());
                }
            }
            Path data = Path.of(data(server));
            if (Files.exists(data)) {
                try (Stream<Path> files = Files.walk(data)) {
                    for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(file);
                    }
                }
            }
        }
    }
}
