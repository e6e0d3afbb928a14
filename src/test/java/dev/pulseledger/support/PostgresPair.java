package dev.pulseledger.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL primary and a streaming standby of their own (synchronous, or an asynchronous read
 * replica), made with initdb and pg_basebackup in a temporary folder on free ports, so a test can crash
 * the primary and promote the standby, or stop the replica and pause its replay. PostgreSQL refuses to run as root, so under root every command runs as the postgres user.
 * Without PostgreSQL's server programs a test is skipped on a workstation but fails under CI.
 */
public final class PostgresPair implements AutoCloseable {
    private static final String DATABASE = "pulseledger";

    private final Path bin;
    private final Path folder;
    private final int primaryPort;
    private final int standbyPort;
    private final Standby kind;
    private final String extraPrimaryConfig;

    /** What stands beside the primary. */
    private enum Standby {
        SYNCHRONOUS,
        READ_REPLICA,
        NONE
    }

    private PostgresPair(Path bin, Path folder, int primaryPort, int standbyPort, Standby kind, String extra) {
        this.bin = bin;
        this.folder = folder;
        this.primaryPort = primaryPort;
        this.standbyPort = standbyPort;
        this.kind = kind;
        this.extraPrimaryConfig = extra;
    }

    /** Starts both servers and returns once the standby is the primary's synchronous standby. */
    public static PostgresPair start() throws IOException, InterruptedException {
        return start(Standby.SYNCHRONOUS, "");
    }

    /**
     * Starts a primary and an asynchronous streaming replica (a read replica: commits never wait for it, so
     * it may be stopped or have its replay paused), returning once it streams.
     */
    public static PostgresPair startWithReadReplica() throws IOException, InterruptedException {
        return start(Standby.READ_REPLICA, "");
    }

    /** A primary alone, with {@code extraConfig} appended to its postgresql.conf: a server a test may kill. */
    public static PostgresPair startAlone(String extraConfig) throws IOException, InterruptedException {
        return start(Standby.NONE, extraConfig);
    }

    private static PostgresPair start(Standby kind, String extraConfig) throws IOException, InterruptedException {
        Path folder = Files.createTempDirectory("postgres-pair");
        PostgresPair pair = new PostgresPair(binaries(), folder, freePort(), freePort(), kind, extraConfig);
        try {
            pair.initialise();
        } catch (IOException | InterruptedException | RuntimeException e) {
            pair.close();
            throw e;
        }
        return pair;
    }

    private void initialise() throws IOException, InterruptedException {
        if (runsAsRoot()) {
            run("chown", "postgres:postgres", folder.toString());
        }
        runPostgres("initdb", "-D", primary().toString(), "-U", "postgres", "--auth=trust", "-E", "UTF8");
        Files.writeString(
                primary().resolve("postgresql.conf"),
                """
                listen_addresses = '127.0.0.1'
                port = %d
                unix_socket_directories = '%s'
                wal_level = replica
                max_wal_senders = 4
                synchronous_standby_names = '%s'
                synchronous_commit = on
                %s
                """.formatted(primaryPort, folder, kind == Standby.SYNCHRONOUS ? "*" : "", extraPrimaryConfig),
                java.nio.file.StandardOpenOption.APPEND);
        startServer(primary());
        if (kind == Standby.NONE) {
            createDatabase();
            return;
        }
        runPostgres(
                "pg_basebackup",
                "-h",
                "127.0.0.1",
                "-p",
                Integer.toString(primaryPort),
                "-U",
                "postgres",
                "-D",
                standby().toString(),
                "-X",
                "stream",
                "-R");
        Files.writeString(
                standby().resolve("postgresql.auto.conf"),
                // Promoted, it has no standby of its own: waiting for one would stop every commit.
                "port = %d%nsynchronous_standby_names = ''%n".formatted(standbyPort),
                java.nio.file.StandardOpenOption.APPEND);
        startServer(standby());
        Waiting.until("the standby streams", this::standbyStreams);
        createDatabase();
    }

    private void createDatabase() {
        try (Connection connection = DriverManager.getConnection(serverUrl(primaryPort, "postgres"));
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + DATABASE);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Both hosts, the driver told to find the one that is primary. */
    public String multiHostUrl() {
        return "jdbc:postgresql://127.0.0.1:%d,127.0.0.1:%d/%s?user=postgres&targetServerType=primary"
                .formatted(primaryPort, standbyPort, DATABASE);
    }

    /** The standby alone: after {@link #promoteStandby()}, the new primary. */
    public String standbyUrl() {
        return serverUrl(standbyPort, DATABASE);
    }

    /** Kills the primary as a crash would (immediate shutdown: no checkpoint, clients cut off). */
    public void crashPrimary() throws IOException, InterruptedException {
        runPostgres("pg_ctl", "-D", primary().toString(), "stop", "-m", "immediate");
    }

    /** Promotes the standby and returns once it accepts writes. */
    public void promoteStandby() throws IOException, InterruptedException {
        runPostgres("pg_ctl", "-D", standby().toString(), "promote", "-w");
    }

    /** The primary alone. */
    public String primaryUrl() {
        return serverUrl(primaryPort, DATABASE);
    }

    /**
     * Kills the primary's postmaster and every process of it with SIGKILL, as the kernel's OOM killer or a
     * crash would: nothing is flushed, shared memory (with any WAL not yet written out) is lost.
     */
    public void killPrimary() throws IOException {
        long pid = Long.parseLong(
                Files.readAllLines(primary().resolve("postmaster.pid")).get(0).strip());
        ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
        List<ProcessHandle> children = postmaster.descendants().toList();
        postmaster.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
        Waiting.until(
                "the killed primary's processes are gone",
                () -> !postmaster.isAlive() && children.stream().noneMatch(ProcessHandle::isAlive));
    }

    /** Starts the killed primary again; it recovers from its WAL before it accepts connections. */
    public void restartPrimary() throws IOException, InterruptedException {
        startServer(primary());
    }

    /** Stops the standby (a fast shutdown: its clients are cut off). */
    public void stopStandby() throws IOException, InterruptedException {
        runPostgres("pg_ctl", "-D", standby().toString(), "stop", "-m", "fast", "-w");
    }

    /** Starts the stopped standby again; it resumes streaming from where it stopped. */
    public void startStandby() throws IOException, InterruptedException {
        startServer(standby());
    }

    /** Pauses (or resumes) the standby's replay of WAL: it keeps receiving, but shows nothing newer. */
    public void pauseStandbyReplay(boolean paused) {
        try (Connection connection = DriverManager.getConnection(standbyUrl());
                Statement statement = connection.createStatement()) {
            statement.execute(paused ? "SELECT pg_wal_replay_pause()" : "SELECT pg_wal_replay_resume()");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private boolean standbyStreams() {
        try (Connection connection = DriverManager.getConnection(serverUrl(primaryPort, "postgres"));
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT count(*) FROM pg_stat_replication WHERE sync_state = "
                        + (kind == Standby.SYNCHRONOUS ? "'sync'" : "'async'") + " AND state = 'streaming'")) {
            rs.next();
            return rs.getInt(1) == 1;
        } catch (SQLException e) {
            return false;
        }
    }

    private void startServer(Path data) throws IOException, InterruptedException {
        runPostgres(
                "pg_ctl",
                "-D",
                data.toString(),
                "-l",
                data.resolveSibling(data.getFileName() + ".log").toString(),
                "-w",
                "start");
    }

    private Path primary() {
        return folder.resolve("primary");
    }

    private Path standby() {
        return folder.resolve("standby");
    }

    private static String serverUrl(int port, String database) {
        return "jdbc:postgresql://127.0.0.1:%d/%s?user=postgres".formatted(port, database);
    }

    /** The newest installed PostgreSQL's programs (Debian keeps them out of PATH). */
    private static Path binaries() throws IOException {
        Path versions = Path.of("/usr/lib/postgresql");
        List<Path> folders = new ArrayList<>();
        if (Files.isDirectory(versions)) {
            try (Stream<Path> installed = Files.list(versions)) {
                installed
                        .filter(version -> version.getFileName().toString().matches("\\d+"))
                        .sorted(Comparator.comparingInt((Path version) ->
                                        Integer.parseInt(version.getFileName().toString()))
                                .reversed())
                        .forEach(version -> folders.add(version.resolve("bin")));
            }
        }
        return ExternalTool.require("initdb", "apt-get install postgresql", folders.toArray(Path[]::new))
                .path()
                .getParent();
    }

    private void runPostgres(String program, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        if (runsAsRoot()) {
            command.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        command.add(bin.resolve(program).toString());
        command.addAll(List.of(arguments));
        run(command.toArray(String[]::new));
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
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

    /** Stops whatever still runs and removes both data folders. */
    @Override
    public void close() throws IOException {
        for (Path data : List.of(standby(), primary())) {
            if (Files.exists(data.resolve("postmaster.pid"))) {
                try {
                    runPostgres("pg_ctl", "-D", data.toString(), "stop", "-m", "immediate");
                } catch (IllegalStateException e) {
                    // Already gone: nothing to stop.
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("Interrupted while stopping PostgreSQL in " + data, e);
                }
            }
        }
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
