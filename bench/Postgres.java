import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fresh PostgreSQL database for the server, another for pgbench, with {@code --baseline-jar} one for
 * the baseline jar's server, and any more a case asks for; all dropped at the end.
 */
final class Postgres {
    private final Options options;
    private final String appDatabase;
    private final String naiveDatabase;
    private final String baselineDatabase;
    private final String suffix;
    private final List<String> moreDatabases = new ArrayList<>();

    Postgres(Options options) throws SQLException {
        this.options = options;
        this.suffix = Long.toString(System.currentTimeMillis(), 36);
        this.appDatabase = "pulseledger_bench_" + suffix;
        this.naiveDatabase = "pulseledger_naive_" + suffix;
        this.baselineDatabase = "pulseledger_baseline_" + suffix;
        admin("CREATE DATABASE " + appDatabase);
        admin("CREATE DATABASE " + naiveDatabase);
        if (options.baselineJar().isPresent()) {
            admin("CREATE DATABASE " + baselineDatabase);
        }
    }

    String appDatabase() {
        return appDatabase;
    }

    String baselineDatabase() {
        return baselineDatabase;
    }

    /** A further fresh database, {@code pulseledger_<name>_<suffix>}; {@code name} is the bench's own word. */
    String createDatabase(String name) throws SQLException {
        String database = "pulseledger_" + name + "_" + suffix;
        admin("CREATE DATABASE " + database);
        moreDatabases.add(database);
        return database;
    }

    private String jdbcUrl(String database) {
        return jdbcUrl(options, database);
    }

    static String jdbcUrl(Options options, String database) {
        String url = "jdbc:postgresql://" + options.pgHost() + ":" + options.pgPort() + "/" + database + "?user="
                + options.pgUser();
        String password = System.getenv("PGPASSWORD");
        return password == null ? url : url + "&password=" + password;
    }

    private void admin(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl("postgres"));
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    void drop() throws SQLException {
        admin("DROP DATABASE IF EXISTS " + appDatabase + " WITH (FORCE)");
        admin("DROP DATABASE IF EXISTS " + naiveDatabase + " WITH (FORCE)");
        admin("DROP DATABASE IF EXISTS " + baselineDatabase + " WITH (FORCE)");
        for (String database : moreDatabases) {
            admin("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }

    /**
     * The naive baseline's two tables, made once per run so that they grow round by round as the server's
     * do: account 0 is the hot one, 1 to {@code --accounts} the spread ones. Balances are large enough that
     * every spend succeeds.
     */
    void prepareNaive() throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl(naiveDatabase));
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS naive_spendings, naive_accounts");
            statement.execute("CREATE TABLE naive_accounts (id integer PRIMARY KEY,"
                    + " balance bigint NOT NULL CHECK (balance >= 0))");
            statement.execute("CREATE TABLE naive_spendings (id bigserial PRIMARY KEY,"
                    + " account_id integer NOT NULL REFERENCES naive_accounts (id),"
                    + " amount bigint NOT NULL, created_at timestamptz NOT NULL)");
            statement.execute("CREATE INDEX naive_spendings_account ON naive_spendings (account_id)");
            statement.execute("INSERT INTO naive_accounts SELECT g, " + Bench.HOT_BALANCE
                    + " FROM generate_series(0, " + options.accounts() + ") g");
            statement.execute("VACUUM ANALYZE naive_accounts");
        }
    }

    /**
     * The obvious design, as pgbench runs it: per spend, BEGIN, a conditional UPDATE of the
     * balance, an INSERT of the spending, COMMIT; on the hot account or over the spread ones. Like the
     * server's cases it first runs unmeasured for --case-warmup-seconds, so that the yardstick is as warm
     * as what it measures (a cold first run on freshly loaded tables flattered the ratio by a quarter).
     */
    Result naive(String variant, int connections, Path folder, int round) throws Exception {
        boolean hot = variant.equals("hot");
        Path script = folder.resolve("naive.sql");
        Files.writeString(script, """
                \\set aid random(:first, :last)
                BEGIN;
                UPDATE naive_accounts SET balance = balance - 1 WHERE id = :aid AND balance >= 1;
                INSERT INTO naive_spendings (account_id, amount, created_at) VALUES (:aid, 1, now());
                COMMIT;
                """);
        String run = variant + "-" + connections + "-round" + round;
        if (options.caseWarmupSeconds() > 0) {
            pgbench(script, hot, connections, options.caseWarmupSeconds(), Optional.empty());
        }
        Path logs = Files.createDirectories(folder.resolve("pgbench-" + run));
        OptionalLong walFilesBefore = WalMeter.walFiles(jdbcUrl(naiveDatabase));
        String output = pgbench(script, hot, connections, options.seconds(), Optional.of(logs));
        Files.writeString(folder.resolve("pgbench-" + run + ".log"), output);
        Matcher tps = Pattern.compile("tps = ([0-9.]+) \\(without initial connection time\\)").matcher(output);
        if (!tps.find()) {
            throw new IllegalStateException("pgbench printed no tps:\n" + output);
        }
        long[] latencies = latencies(logs);
        String name = hot ? "pgbench naive, hot account" : "pgbench naive, " + options.accounts() + " accounts";
        return new Result(
                "postgresql",
                name,
                connections,
                Double.parseDouble(tps.group(1)),
                percentile(latencies, 50) / 1000.0,
                percentile(latencies, 99) / 1000.0,
                0,
                Double.NaN,
                Double.NaN,
                latencies.length + " transactions",
                "",
                WalMeter.grownBy(walFilesBefore, WalMeter.walFiles(jdbcUrl(naiveDatabase))),
                round);
    }

    /** One pgbench run of {@code script}; with {@code logs}, each transaction's latency is logged there. */
    private String pgbench(Path script, boolean hot, int connections, int seconds, Optional<Path> logs)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(
                "pgbench",
                "-n",
                "-h",
                options.pgHost(),
                "-p",
                Integer.toString(options.pgPort()),
                "-U",
                options.pgUser(),
                "-c",
                Integer.toString(connections),
                "-j",
                Integer.toString(Math.min(2, connections)),
                "-T",
                Integer.toString(seconds),
                "-M",
                "prepared",
                "-D",
                "first=" + (hot ? 0 : 1),
                "-D",
                "last=" + (hot ? 0 : options.accounts()),
                "-f",
                script.toAbsolutePath().toString()));
        if (logs.isPresent()) {
            command.addAll(List.of("--log", "--log-prefix=" + logs.get().resolve("tx").toAbsolutePath()));
        }
        command.add(naiveDatabase);
        return Processes.run(command, Duration.ofSeconds(seconds + 60));
    }

    /** Per-transaction latencies (µs, the third field of pgbench's log lines). */
    private static long[] latencies(Path logs) throws IOException {
        List<Long> values = new ArrayList<>();
        try (var files = Files.list(logs)) {
            for (Path file : files.toList()) {
                for (String line : Files.readAllLines(file)) {
                    String[] fields = line.split(" ");
                    if (fields.length >= 3) {
                        values.add(Long.parseLong(fields[2]));
                    }
                }
            }
        }
        return values.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    private static long percentile(long[] sorted, int percent) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * percent / 100.0) - 1)];
    }
}
