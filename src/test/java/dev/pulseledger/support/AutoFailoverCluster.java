package dev.pulseledger.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A pg_auto_failover formation of its own: a monitor, a primary and a secondary, each a {@code pg_autoctl}
 * on a free port in a temporary folder, run as the postgres user. The monitor's health checks are made
 * fast (PRODUCTION.md shows the same settings), so that a killed primary is failed over in seconds.
 * Without pg_autoctl a test is skipped on a workstation but fails under CI.
 */
public final class AutoFailoverCluster implements AutoCloseable {
    public static final String DATABASE = "pulseledger";
    private static final String INSTALL = "apt-get install postgresql-15-auto-failover";
    /** The monitor's settings that decide how fast a dead primary is noticed and replaced. */
    private static final Map<String, Integer> FAST_FAILOVER = Map.of(
            "pgautofailover.health_check_period", 1000,
            "pgautofailover.health_check_timeout", 1000,
            "pgautofailover.health_check_max_retries", 1,
            "pgautofailover.health_check_retry_delay", 500,
            "pgautofailover.node_considered_unhealthy_timeout", 3000,
            "pgautofailover.primary_demote_timeout", 3000);

    private final Path autoctl;
    private final Path bin;
    private final Path folder;
    private final int monitorPort;
    private final int[] nodePorts;
    private final List<Process> processes = new ArrayList<>();
    private final Process[] nodes = new Process[2];

    private AutoFailoverCluster(Path autoctl, Path bin, Path folder) throws IOException {
        this.autoctl = autoctl;
        this.bin = bin;
        this.folder = folder;
        this.monitorPort = freePort();
        this.nodePorts = new int[] {freePort(), freePort()};
    }

    /** Makes and starts the monitor, then the primary, then the secondary; returns once both nodes are in their states. */
    public static AutoFailoverCluster start() throws IOException, InterruptedException {
        Path autoctl = ExternalTool.require("pg_autoctl", INSTALL).path();
        Path bin = ExternalTool.require("pg_ctl", "apt-get install postgresql", Path.of("/usr/lib/postgresql/15/bin"))
                .path()
                .getParent();
        Path folder = Files.createTempDirectory("auto-failover");
        AutoFailoverCluster cluster = new AutoFailoverCluster(autoctl, bin, folder);
        try {
            cluster.initialise();
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void initialise() throws IOException, InterruptedException {
        run("chown", "postgres:postgres", folder.toString());
        runAutoctl(
                "create",
                "monitor",
                "--pgdata",
                data("monitor"),
                "--pgport",
                Integer.toString(monitorPort),
                "--hostname",
                "127.0.0.1",
                "--auth",
                "trust",
                "--no-ssl");
        processes.add(startAutoctl("monitor", "run", "--pgdata", data("monitor")));
        Waiting.until("the monitor answers", () -> answers(monitorPort, "pg_auto_failover"));
        try (Connection connection = DriverManager.getConnection(url(monitorPort, "pg_auto_failover"));
                Statement statement = connection.createStatement()) {
            for (Map.Entry<String, Integer> setting : FAST_FAILOVER.entrySet()) {
                statement.execute("ALTER SYSTEM SET " + setting.getKey() + " = " + setting.getValue());
            }
            statement.execute("SELECT pg_reload_conf()");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        for (int i = 0; i < 2; i++) {
            nodes[i] = startNode(i);
            processes.add(nodes[i]);
            int port = nodePorts[i];
            if (i == 0) {
                Waiting.until(
                        "the first node is a primary", () -> answers(port, DATABASE) && state(0).contains("single"));
            }
        }
        // pg_basebackup waits for a spread checkpoint (minutes on an idle server): ask for one at once.
        Waiting.until("the secondary has its copy", () -> {
            checkpoint(nodePorts[0]);
            return state(1).contains("secondary");
        });
        Waiting.until("the primary waits for its secondary", () -> state(0).contains("primary"));
    }

    private Process startNode(int index) throws IOException {
        return startAutoctl(
                "node" + index,
                "create",
                "postgres",
                "--pgdata",
                data("node" + index),
                "--pgport",
                Integer.toString(nodePorts[index]),
                "--hostname",
                "127.0.0.1",
                "--auth",
                "trust",
                "--no-ssl",
                "--dbname",
                DATABASE,
                "--monitor",
                "postgres://autoctl_node@127.0.0.1:" + monitorPort + "/pg_auto_failover?sslmode=disable",
                "--run");
    }

    /** Both nodes, the driver told to find the one that is primary. */
    public String multiHostUrl() {
        return "jdbc:postgresql://127.0.0.1:%d,127.0.0.1:%d/%s?user=postgres&targetServerType=primary"
                .formatted(nodePorts[0], nodePorts[1], DATABASE);
    }

    /** The node that is primary now (0 or 1), as PostgreSQL itself says. */
    public int primary() {
        for (int i = 0; i < 2; i++) {
            try (Connection connection = DriverManager.getConnection(url(nodePorts[i], DATABASE));
                    Statement statement = connection.createStatement();
                    var rs = statement.executeQuery("SELECT pg_is_in_recovery()")) {
                rs.next();
                if (!rs.getBoolean(1)) {
                    return i;
                }
            } catch (SQLException e) {
                // Not answering: not the primary.
            }
        }
        return -1;
    }

    /**
     * The monitor has made node {@code index} the primary: it reports itself {@code wait_primary} or
     * {@code primary} (read-write), not merely promoted and still fenced ({@code stop_replication}).
     */
    public boolean promotedByTheMonitor(int index) {
        String[] columns = state(index).split("\\|", -1);
        return columns.length >= 7
                && List.of("wait_primary", "primary").contains(columns[5].strip())
                && primary() == index;
    }

    public String nodeUrl(int index) {
        return url(nodePorts[index], DATABASE);
    }

    /** SIGKILL of the node's pg_autoctl and of its PostgreSQL, every process of both at once. */
    public void killNode(int index) {
        ProcessHandle root = nodes[index].toHandle();
        List<ProcessHandle> all = new ArrayList<>(root.descendants().toList());
        all.add(root);
        all.forEach(ProcessHandle::destroyForcibly);
        Waiting.until("the killed node's processes are gone", () -> all.stream().noneMatch(ProcessHandle::isAlive));
    }

    /** What the monitor's table says of node {@code index} (its line of {@code pg_autoctl show state}). */
    public String state(int index) {
        try {
            ExternalTool.Result result = asPostgres("show", "state", "--pgdata", data("monitor"));
            return result.stdout()
                    .lines()
                    .filter(line -> line.contains(":" + nodePorts[index] + " "))
                    .findFirst()
                    .orElse("");
        } catch (IOException | InterruptedException e) {
            return "";
        }
    }

    /** The monitor's whole state table and events, for a failing test's message. */
    public String describe() {
        try {
            return asPostgres("show", "state", "--pgdata", data("monitor")).output()
                    + asPostgres("show", "events", "--pgdata", data("monitor")).output();
        } catch (IOException | InterruptedException e) {
            return e.toString();
        }
    }

    private ExternalTool.Result asPostgres(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                "runuser", "-u", "postgres", "--", "env", "PATH=" + bin + ":/usr/bin:/bin", autoctl.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).start();
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        process.waitFor(30, TimeUnit.SECONDS);
        return new ExternalTool.Result(process.exitValue(), out, err);
    }

    private void runAutoctl(String... arguments) throws IOException, InterruptedException {
        ExternalTool.Result result = asPostgres(arguments);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(
                    "pg_autoctl " + String.join(" ", arguments) + " failed: " + result.output());
        }
    }

    private Process startAutoctl(String name, String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                "runuser", "-u", "postgres", "--", "env", "PATH=" + bin + ":/usr/bin:/bin", autoctl.toString()));
        command.addAll(List.of(arguments));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(folder.resolve(name + ".log").toFile())
                .start();
    }

    private String data(String name) {
        return folder.resolve(name).toString();
    }

    private static boolean answers(int port, String database) {
        try (Connection connection = DriverManager.getConnection(url(port, database))) {
            return connection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    private static void checkpoint(int port) {
        try (Connection connection = DriverManager.getConnection(url(port, "postgres"));
                Statement statement = connection.createStatement()) {
            statement.execute("CHECKPOINT");
        } catch (SQLException e) {
            // Not up yet: the next poll asks again.
        }
    }

    private static String url(int port, String database) {
        return "jdbc:postgresql://127.0.0.1:%d/%s?user=postgres&connectTimeout=2".formatted(port, database);
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed");
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Kills every pg_autoctl and PostgreSQL it started, then removes the folder. */
    @Override
    public void close() throws IOException {
        List<ProcessHandle> all = new ArrayList<>();
        for (Process process : processes) {
            all.addAll(process.toHandle().descendants().toList());
            all.add(process.toHandle());
        }
        all.forEach(ProcessHandle::destroyForcibly);
        Waiting.within(Duration.ofSeconds(10), () -> all.stream().noneMatch(ProcessHandle::isAlive));
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
