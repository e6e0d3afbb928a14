import dev.pulseledger.keys.Secrets;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Ids;
import dev.pulseledger.verify.LedgerVerifier;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Pulseledger benchmark in one run (docs/PERFORMANCE.md): for each store it seeds a fresh
 * database, starts the server as the README does, drives it with wrk on loopback, runs the naive
 * one-transaction-per-spend pgbench baseline on the same PostgreSQL, then stops the server and
 * checks that the ledger holds exactly the spends the clients were told about.
 *
 * <p>Run it with {@code bench/run.sh [options]}; {@code --help} lists the options.
 */
public final class Bench {
    static final long HOT_BALANCE = 1_000_000_000_000L;
    static final long SPREAD_BALANCE = 1_000_000_000L;
    static final int SERVICES = 50;
    static final double MB = 1024;

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        Files.createDirectories(options.out());
        Report report = new Report();
        report.machine = Machine.describe(options);
        System.out.println(report.machine);
        for (String store : options.stores()) {
            new StoreRun(options, store, report).run();
        }
        report.loadAfter = Machine.loadAverage();
        String text = report.render(options);
        System.out.println();
        System.out.println(text);
        Files.writeString(options.out().resolve("results.md"), text);
        System.out.println("Logs and results: " + options.out());
        System.exit(report.checksPassed() ? 0 : 1);
    }

    /** Command-line options, with defaults that make one full run last about ten minutes. */
    record Options(
            int seconds,
            int warmupSeconds,
            List<Integer> connections,
            List<String> stores,
            List<String> cases,
            int accounts,
            String pgHost,
            int pgPort,
            String pgUser,
            Path jar,
            List<String> javaOptions,
            boolean profile,
            Path out) {
        static final List<String> ALL_CASES = List.of("live", "balance", "pulse", "spend-hot", "spend-spread", "naive");

        static Options parse(String[] args) {
            Map<String, String> given = new LinkedHashMap<>();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (arg.equals("--help") || arg.equals("-h")) {
                    System.out.println(usage());
                    System.exit(0);
                }
                if (arg.equals("--profile")) {
                    given.put("profile", "true");
                    continue;
                }
                if (!arg.startsWith("--") || i + 1 >= args.length) {
                    throw new IllegalArgumentException("bad argument " + arg + "\n" + usage());
                }
                given.put(arg.substring(2), args[++i]);
            }
            String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
            Options options = new Options(
                    Integer.parseInt(given.getOrDefault("seconds", "10")),
                    Integer.parseInt(given.getOrDefault("warmup-seconds", "5")),
                    Arrays.stream(given.getOrDefault("connections", "8,32,64").split(","))
                            .map(Integer::parseInt)
                            .toList(),
                    List.of(given.getOrDefault("stores", "sqlite,postgresql").split(",")),
                    List.of(given.getOrDefault("cases", String.join(",", ALL_CASES)).split(",")),
                    Integer.parseInt(given.getOrDefault("accounts", "10000")),
                    given.getOrDefault("pg-host", env("PGHOST", "127.0.0.1")),
                    Integer.parseInt(given.getOrDefault("pg-port", env("PGPORT", "5432"))),
                    given.getOrDefault("pg-user", env("PGUSER", "postgres")),
                    Path.of(given.getOrDefault("jar", "target/pulseledger.jar")),
                    splitOptions(given.getOrDefault("java-options", env("BENCH_JAVA_OPTIONS", ""))),
                    given.containsKey("profile"),
                    Path.of(given.getOrDefault("out", "bench/out/" + stamp)));
            given.keySet().removeAll(List.of(
                    "seconds", "warmup-seconds", "connections", "stores", "cases", "accounts", "pg-host", "pg-port",
                    "pg-user", "jar", "java-options", "profile", "out"));
            if (!given.isEmpty()) {
                throw new IllegalArgumentException("unknown option(s) " + given.keySet() + "\n" + usage());
            }
            if (!List.of("sqlite", "postgresql").containsAll(options.stores())
                    || !ALL_CASES.containsAll(options.cases())) {
                throw new IllegalArgumentException("unknown store or case\n" + usage());
            }
            return options;
        }

        static String usage() {
            return """
                    bench/run.sh [options]
                      --seconds N          length of each measured case (default 10)
                      --warmup-seconds N   JIT warm-up per store before measuring (default 5)
                      --connections LIST   client counts for the spend and pgbench cases (default 8,32,64)
                      --stores LIST        sqlite,postgresql (default both)
                      --cases LIST         live,balance,pulse,spend-hot,spend-spread,naive (default all)
                      --accounts N         accounts of the spread case (default 10000)
                      --pg-host H --pg-port P --pg-user U   PostgreSQL server (default PGHOST/PGPORT/PGUSER
                                           or 127.0.0.1:5432 postgres); a fresh database is made and dropped
                      --jar PATH           the server jar (default target/pulseledger.jar)
                      --java-options "..." JVM options of the server (default $BENCH_JAVA_OPTIONS, else none);
                                           bench/run.sh passes the README's
                      --profile            record a JFR profile of the server into the output folder
                      --out DIR            output folder (default bench/out/<timestamp>)""";
        }

        boolean wants(String name) {
            return cases.contains(name);
        }

        private static String env(String name, String fallback) {
            String value = System.getenv(name);
            return value == null || value.isBlank() ? fallback : value;
        }

        private static List<String> splitOptions(String text) {
            return text.isBlank() ? List.of() : List.of(text.trim().split("\\s+"));
        }
    }

    /** One measured case. */
    record Result(
            String store,
            String name,
            int connections,
            double requestsPerSecond,
            double p50Millis,
            double p99Millis,
            long rssKb,
            double serverCpuMicros,
            double databaseCpuMicros,
            String statuses,
            String batches) {}

    /** What wrk's script reported for one run. */
    record WrkRun(
            double requestsPerSecond,
            long p50Micros,
            long p99Micros,
            long errors,
            long requests,
            long non2xx,
            Map<Integer, Long> statuses) {
        long count(int status) {
            return statuses.getOrDefault(status, 0L);
        }

        String statusText() {
            StringBuilder text = new StringBuilder();
            if (statuses.isEmpty()) {
                text.append("2xx:").append(requests - non2xx).append(' ');
                if (non2xx > 0) {
                    text.append("other:").append(non2xx).append(' ');
                }
            }
            new TreeMap<>(statuses).forEach((status, count) -> text.append(status).append(':').append(count).append(' '));
            if (errors > 0) {
                text.append("socket-errors:").append(errors);
            }
            return text.toString().trim();
        }
    }

    /** Every store's results and checks, rendered as Markdown. */
    static final class Report {
        final List<Result> results = new ArrayList<>();
        final List<String> checks = new ArrayList<>();
        final Map<String, Long> peakRssKb = new LinkedHashMap<>();
        String machine = "";
        String loadAfter = "";
        boolean failed;

        void add(Result result) {
            results.add(result);
            System.out.printf(
                    Locale.ROOT,
                    "  %-10s %-26s c=%-3d %8.0f req/s  p50 %6.2f ms  p99 %7.2f ms  rss %4.0f MB  cpu/req %s  %s %s%n",
                    result.store(),
                    result.name(),
                    result.connections(),
                    result.requestsPerSecond(),
                    result.p50Millis(),
                    result.p99Millis(),
                    result.rssKb() / MB,
                    cpuText(result),
                    result.statuses(),
                    result.batches());
        }

        void check(boolean ok, String text) {
            checks.add((ok ? "PASS  " : "FAIL  ") + text);
            failed |= !ok;
            System.out.println("  " + (ok ? "PASS  " : "FAIL  ") + text);
        }

        boolean checksPassed() {
            return !failed;
        }

        Optional<Result> find(String store, String name, int connections) {
            return results.stream()
                    .filter(r -> r.store().equals(store) && r.name().equals(name))
                    .filter(r -> connections == 0 || r.connections() == connections)
                    .findFirst();
        }

        String render(Options options) {
            StringBuilder md = new StringBuilder();
            md.append(machine).append("Load average at the end: ").append(loadAfter).append("\n\n");
            md.append("| store | case | connections | req/s | p50 ms | p99 ms | server RSS MB |"
                    + " CPU µs/req server + db | statuses | batches: count × mean size, mean ms |\n");
            md.append("|---|---|---:|---:|---:|---:|---:|---:|---|---|\n");
            for (Result r : results) {
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %d | %.0f | %.2f | %.2f | %s | %s | %s | %s |%n",
                        r.store(),
                        r.name(),
                        r.connections(),
                        r.requestsPerSecond(),
                        r.p50Millis(),
                        r.p99Millis(),
                        r.rssKb() == 0 ? "–" : String.format(Locale.ROOT, "%.0f", r.rssKb() / MB),
                        cpuText(r),
                        r.statuses(),
                        r.batches()));
            }
            md.append("\nTargets (issue 4):\n\n");
            int most = options.connections().stream().max(Integer::compare).orElse(0);
            for (String store : options.stores()) {
                ratio(md, store, "GET balance", "GET /health/live", 0.7);
                ratio(md, store, "GET pulse (50 services)", "GET /health/live", 0.6);
            }
            find("postgresql", "spend, hot account", most).ifPresent(spend -> find("postgresql", "pgbench naive, hot account", most)
                    .ifPresent(naive -> {
                        double times = spend.requestsPerSecond() / naive.requestsPerSecond();
                        md.append(String.format(
                                Locale.ROOT,
                                "- PostgreSQL hot account at %d connections: %.0f spends/s = %.1f× naive pgbench (%.0f/s),"
                                        + " p99 %.1f ms: %s (target ≥ 10×, p99 ≤ 20 ms)%n",
                                most,
                                spend.requestsPerSecond(),
                                times,
                                naive.requestsPerSecond(),
                                spend.p99Millis(),
                                verdict(times >= 10 && spend.p99Millis() <= 20)));
                    }));
            find("postgresql", "spend, " + options.accounts() + " accounts", most).ifPresent(spend -> find(
                            "postgresql", "pgbench naive, " + options.accounts() + " accounts", most)
                    .ifPresent(naive -> md.append(String.format(
                            Locale.ROOT,
                            "- PostgreSQL %d accounts at %d connections: %.1f× naive pgbench (for information)%n",
                            options.accounts(),
                            most,
                            spend.requestsPerSecond() / naive.requestsPerSecond()))));
            results.stream()
                    .filter(r -> r.store().equals("sqlite") && r.name().startsWith("spend"))
                    .max((a, b) -> Double.compare(a.requestsPerSecond(), b.requestsPerSecond()))
                    .ifPresent(best -> md.append(String.format(
                            Locale.ROOT,
                            "- SQLite durable spends/s (best case: %s, %d connections): %.0f: %s (target ≥ 15000)%n",
                            best.name(),
                            best.connections(),
                            best.requestsPerSecond(),
                            verdict(best.requestsPerSecond() >= 15_000))));
            peakRssKb.forEach((store, kb) -> md.append(String.format(
                    Locale.ROOT,
                    "- Peak server RSS on %s (VmHWM): %.0f MB: %s (target ≤ 300 MB)%n",
                    store,
                    kb / MB,
                    verdict(kb / MB <= 300))));
            md.append("\nChecks after the run:\n\n");
            checks.forEach(check -> md.append("- ").append(check).append('\n'));
            return md.toString();
        }

        private void ratio(StringBuilder md, String store, String name, String base, double target) {
            find(store, name, 0).ifPresent(r -> find(store, base, 0).ifPresent(b -> {
                double ratio = r.requestsPerSecond() / b.requestsPerSecond();
                md.append(String.format(
                        Locale.ROOT,
                        "- %s: %s = %.2f× %s: %s (target ≥ %.1f×)%n",
                        store,
                        name,
                        ratio,
                        base,
                        verdict(ratio >= target),
                        target));
            }));
        }

        private static String cpuText(Result r) {
            String server = Double.isNaN(r.serverCpuMicros()) ? "–" : String.format(Locale.ROOT, "%.0f", r.serverCpuMicros());
            String database =
                    Double.isNaN(r.databaseCpuMicros()) ? "–" : String.format(Locale.ROOT, "%.0f", r.databaseCpuMicros());
            return server + " + " + database;
        }

        private static String verdict(boolean met) {
            return met ? "met" : "NOT met";
        }
    }

    /** Everything measured on one store: seed, serve, load, stop, verify. */
    static final class StoreRun {
        private final Options options;
        private final String store;
        private final Report report;
        private final Path folder;
        private final String spreadName;
        private long hotSpent201;
        private long hotInFlightBound;
        private long spreadSpent201;
        private long spreadInFlightBound;
        private Cpu cpu;
        private Optional<String> database = Optional.empty();

        StoreRun(Options options, String store, Report report) {
            this.options = options;
            this.store = store;
            this.report = report;
            this.folder = options.out().resolve(store);
            this.spreadName = "spend, " + options.accounts() + " accounts";
        }

        void run() throws Exception {
            Files.createDirectories(folder);
            System.out.println("== " + store);
            Optional<Postgres> postgres = store.equals("postgresql") ? Optional.of(new Postgres(options)) : Optional.empty();
            try {
                database = postgres.map(Postgres::appDatabase);
                Path sqliteFile = folder.resolve("bench.db").toAbsolutePath();
                for (String suffix : List.of("", "-wal", "-shm")) {
                    Files.deleteIfExists(Path.of(sqliteFile + suffix)); // an earlier run into the same folder
                }
                String url = postgres.map(Postgres::appUrl).orElse("jdbc:sqlite:" + sqliteFile);
                if (postgres.isPresent() && options.wants("naive")) {
                    for (String variant : List.of("hot", "spread")) {
                        for (int connections : options.connections()) {
                            report.add(postgres.get().naive(variant, connections, folder));
                        }
                    }
                }
                Seed seed = Seed.create(url, options.accounts(), folder);
                serveAndLoad(url, seed);
                verify(url, seed);
            } finally {
                if (postgres.isPresent()) {
                    postgres.get().drop();
                }
            }
        }

        private void serveAndLoad(String url, Seed seed) throws Exception {
            try (Server server = Server.start(options, url, folder, store)) {
                cpu = new Cpu(server.pid(), database);
                server.putServices();
                if (options.warmupSeconds() > 0) {
                    int seconds = options.warmupSeconds();
                    wrk(server, "GET", "/health/live", null, 32, seconds, false);
                    wrk(server, "GET", "/api/tokens/balance", seed.hotKey(), 32, seconds, false);
                    wrk(server, "GET", "/api/pulse", seed.hotKey(), 32, seconds, false);
                    tallyHot(wrk(server, "POST", "/api/tokens/spend/1", seed.hotKey(), 32, seconds, true), 32);
                }
                int readers = options.connections().stream().max(Integer::compare).orElse(64);
                if (options.wants("live")) {
                    measure(server, "GET /health/live", "GET", "/health/live", null, readers);
                }
                if (options.wants("balance")) {
                    measure(server, "GET balance", "GET", "/api/tokens/balance", seed.hotKey(), readers);
                }
                if (options.wants("pulse")) {
                    measure(server, "GET pulse (50 services)", "GET", "/api/pulse", seed.hotKey(), readers);
                }
                for (int connections : options.connections()) {
                    if (options.wants("spend-hot")) {
                        WrkRun run = measure(
                                server, "spend, hot account", "POST", "/api/tokens/spend/1", seed.hotKey(), connections);
                        tallyHot(run, connections);
                    }
                }
                for (int connections : options.connections()) {
                    if (options.wants("spend-spread")) {
                        WrkRun run = measure(
                                server,
                                spreadName,
                                "POST",
                                "/api/tokens/spend/1",
                                "@" + seed.spreadKeys().toAbsolutePath(),
                                connections);
                        spreadSpent201 += run.count(201);
                        spreadInFlightBound += connections;
                    }
                }
                report.peakRssKb.put(store, server.procStatusKb("VmHWM"));
            }
        }

        /** The group commit's batches during a case, from the server's own metrics. */
        private static String batches(Map<String, Double> before, Map<String, Double> after) {
            double count = delta(before, after, "pulseledger_spend_batch_size_count");
            if (count == 0) {
                return "";
            }
            return String.format(
                    Locale.ROOT,
                    "%.0f × %.1f, %.2f ms",
                    count,
                    delta(before, after, "pulseledger_spend_batch_size_sum") / count,
                    1000 * delta(before, after, "pulseledger_spend_batch_seconds_sum") / count);
        }

        private static double delta(Map<String, Double> before, Map<String, Double> after, String name) {
            return after.getOrDefault(name, 0.0) - before.getOrDefault(name, 0.0);
        }

        private void tallyHot(WrkRun run, int connections) {
            hotSpent201 += run.count(201);
            hotInFlightBound += connections;
        }

        private WrkRun measure(Server server, String name, String method, String path, String key, int connections)
                throws Exception {
            Map<String, Double> metricsBefore = server.metrics();
            Cpu.Snapshot before = cpu.snapshot();
            WrkRun run = wrk(server, method, path, key, connections, options.seconds(), method.equals("POST"));
            Cpu.Snapshot after = cpu.snapshot();
            Map<String, Double> metricsAfter = server.metrics();
            report.add(new Result(
                    store,
                    name,
                    connections,
                    run.requestsPerSecond(),
                    run.p50Micros() / 1000.0,
                    run.p99Micros() / 1000.0,
                    server.procStatusKb("VmRSS"),
                    after.serverMicrosSince(before) / run.requests(),
                    after.databaseMicrosSince(before) / run.requests(),
                    run.statusText(),
                    batches(metricsBefore, metricsAfter)));
            return run;
        }

        /** Runs wrk; {@code tally} makes its script count every status (dearer for the client). */
        private WrkRun wrk(
                Server server, String method, String path, String key, int connections, int seconds, boolean tally)
                throws Exception {
            List<String> command = new ArrayList<>(List.of(
                    "wrk",
                    "-t",
                    Integer.toString(Math.min(2, connections)),
                    "-c",
                    Integer.toString(connections),
                    "-d",
                    seconds + "s",
                    "--timeout",
                    "10s",
                    "-s",
                    Path.of("bench/wrk.lua").toAbsolutePath().toString(),
                    "http://127.0.0.1:" + server.port() + path,
                    "--",
                    method,
                    path));
            if (key != null) {
                command.add(key);
            }
            String output = Processes.run(command, Duration.ofSeconds(seconds + 60), Map.of("BENCH_TALLY", tally ? "1" : "0"), true);
            Files.writeString(
                    folder.resolve("wrk.log"),
                    String.join(" ", command).replace(key == null ? "\0" : key, "<key>") + "\n" + output + "\n",
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            return parseWrk(output);
        }

        private static WrkRun parseWrk(String output) {
            String line = output.lines()
                    .filter(l -> l.startsWith("BENCH "))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("wrk printed no result:\n" + output));
            Map<String, String> fields = new LinkedHashMap<>();
            for (String pair : line.substring(6).split(" ")) {
                String[] parts = pair.split("=", 2);
                fields.put(parts[0], parts[1]);
            }
            Map<Integer, Long> statuses = new TreeMap<>();
            fields.forEach((name, value) -> {
                if (name.startsWith("status_")) {
                    statuses.put(Integer.parseInt(name.substring(7)), Long.parseLong(value));
                }
            });
            long errors = Long.parseLong(fields.get("connect_errors"))
                    + Long.parseLong(fields.get("read_errors"))
                    + Long.parseLong(fields.get("write_errors"))
                    + Long.parseLong(fields.get("timeouts"));
            return new WrkRun(
                    Double.parseDouble(fields.get("rps")),
                    Long.parseLong(fields.get("p50_us")),
                    Long.parseLong(fields.get("p99_us")),
                    errors,
                    Long.parseLong(fields.get("requests")),
                    Long.parseLong(fields.get("non_2xx_3xx")),
                    statuses);
        }

        /**
         * After the server stopped: the ledger invariants hold, and each account lost exactly the
         * spends whose 201 a client counted, plus at most one request per connection that was still in
         * flight when wrk stopped (its answer was never read, but it may well have committed).
         */
        private void verify(String url, Seed seed) {
            try (Database database = Seed.open(url)) {
                List<LedgerVerifier.Mismatch> mismatches = new LedgerVerifier(database).verify();
                report.check(
                        mismatches.isEmpty(),
                        store + ": LedgerVerifier finds " + mismatches.size() + " broken invariants"
                                + (mismatches.isEmpty() ? "" : " (first: " + mismatches.getFirst() + ")"));
                long[] spent = database.read(connection -> seed.spent(connection));
                long hotSpent = spent[0];
                long spreadSpent = spent[1];
                long spendings = spent[2];
                report.check(
                        hotSpent >= hotSpent201 && hotSpent - hotSpent201 <= hotInFlightBound,
                        String.format(
                                "%s: hot account spent %d tokens; clients counted %d × 201 (+ ≤ %d in flight at stop)",
                                store, hotSpent, hotSpent201, hotInFlightBound));
                report.check(
                        spreadSpent >= spreadSpent201 && spreadSpent - spreadSpent201 <= spreadInFlightBound,
                        String.format(
                                "%s: %d accounts spent %d tokens; clients counted %d × 201 (+ ≤ %d in flight at stop)",
                                store, options.accounts(), spreadSpent, spreadSpent201, spreadInFlightBound));
                report.check(
                        spendings == hotSpent + spreadSpent,
                        String.format("%s: %d spendings recorded for %d tokens spent at 1 token each", store, spendings,
                                hotSpent + spreadSpent));
            }
        }
    }

    /**
     * The bench data: one hot account and {@code accounts} spread accounts, each with one caller key,
     * written straight into a fresh database in one transaction (through the API this would cost a
     * commit per account). The SQL follows the V1 schema.
     */
    record Seed(String hotAccountId, String hotKey, Path spreadKeys, int accounts) {
        private static final String INSERT_ACCOUNT = "INSERT INTO accounts (id, name, plan_id, balance, status, created_at)"
                + " VALUES (?, ?, 'free', ?, 'active', ?)";
        private static final String INSERT_CREDIT = "INSERT INTO ledger_entries (account_id, kind, amount, balance_after,"
                + " spending_id, reason, created_at) VALUES (?, 'credit', ?, ?, NULL, 'opening balance', ?)";
        private static final String INSERT_KEY = "INSERT INTO api_keys (id, account_id, name, key_hash, prefix, created_at)"
                + " VALUES (?, ?, 'bench', ?, ?, ?)";

        static Database open(String url) {
            return Database.open(new Database.Settings(
                    url, 2, Duration.ofSeconds(5), Duration.ofSeconds(300), Duration.ofSeconds(10)));
        }

        static Seed create(String url, int accounts, Path folder) throws IOException {
            long startNanos = System.nanoTime();
            List<String> spreadKeys = new ArrayList<>(accounts);
            String[] hot = new String[2];
            try (Database database = open(url)) {
                database.inTransaction(connection -> {
                    try (PreparedStatement account = connection.prepareStatement(INSERT_ACCOUNT);
                            PreparedStatement credit = connection.prepareStatement(INSERT_CREDIT);
                            PreparedStatement key = connection.prepareStatement(INSERT_KEY)) {
                        long now = System.currentTimeMillis();
                        for (int i = 0; i <= accounts; i++) {
                            long balance = i == 0 ? HOT_BALANCE : SPREAD_BALANCE;
                            String accountId = Ids.account();
                            String secret = Secrets.newCallerKey();
                            account.setString(1, accountId);
                            account.setString(2, i == 0 ? "bench-hot" : "bench-" + i);
                            account.setLong(3, balance);
                            account.setLong(4, now);
                            account.addBatch();
                            credit.setString(1, accountId);
                            credit.setLong(2, balance);
                            credit.setLong(3, balance);
                            credit.setLong(4, now);
                            credit.addBatch();
                            key.setString(1, Ids.key());
                            key.setString(2, accountId);
                            key.setString(3, Secrets.sha256Hex(secret));
                            key.setString(4, Secrets.displayPrefix(secret));
                            key.setLong(5, now);
                            key.addBatch();
                            if (i == 0) {
                                hot[0] = accountId;
                                hot[1] = secret;
                            } else {
                                spreadKeys.add(secret);
                            }
                        }
                        account.executeBatch();
                        credit.executeBatch();
                        key.executeBatch();
                    }
                    return null;
                });
            }
            Path keysFile = folder.resolve("spread-keys.txt");
            Files.write(keysFile, spreadKeys);
            System.out.printf(
                    "  seeded 1 hot account and %d spread accounts in %d ms%n",
                    accounts, (System.nanoTime() - startNanos) / 1_000_000);
            return new Seed(hot[0], hot[1], keysFile, accounts);
        }

        /** Tokens spent from the hot account, from the spread accounts, and the spendings recorded. */
        long[] spent(Connection connection) throws SQLException {
            long[] spent = new long[3];
            try (PreparedStatement ps = connection.prepareStatement(
                    "SELECT COALESCE(SUM(CASE WHEN id = ? THEN ? - balance ELSE 0 END), 0),"
                            + " COALESCE(SUM(CASE WHEN id = ? THEN 0 ELSE ? - balance END), 0) FROM accounts")) {
                ps.setString(1, hotAccountId);
                ps.setLong(2, HOT_BALANCE);
                ps.setString(3, hotAccountId);
                ps.setLong(4, SPREAD_BALANCE);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    spent[0] = rs.getLong(1);
                    spent[1] = rs.getLong(2);
                }
            }
            try (Statement statement = connection.createStatement();
                    ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM spendings")) {
                rs.next();
                spent[2] = rs.getLong(1);
            }
            return spent;
        }
    }

    /** A fresh PostgreSQL database for the server, another for pgbench, both dropped at the end. */
    static final class Postgres {
        private final Options options;
        private final String appDatabase;
        private final String naiveDatabase;

        Postgres(Options options) throws SQLException {
            this.options = options;
            String suffix = Long.toString(System.currentTimeMillis(), 36);
            this.appDatabase = "pulseledger_bench_" + suffix;
            this.naiveDatabase = "pulseledger_naive_" + suffix;
            admin("CREATE DATABASE " + appDatabase);
            admin("CREATE DATABASE " + naiveDatabase);
        }

        String appDatabase() {
            return appDatabase;
        }

        String appUrl() {
            return jdbcUrl(appDatabase);
        }

        private String jdbcUrl(String database) {
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
        }

        /**
         * The obvious design, as pgbench runs it: per spend, BEGIN, a conditional UPDATE of the
         * balance, an INSERT of the spending, COMMIT. Balances are large enough that every spend succeeds.
         */
        Result naive(String variant, int connections, Path folder) throws Exception {
            int accounts = variant.equals("hot") ? 1 : options.accounts();
            try (Connection connection = DriverManager.getConnection(jdbcUrl(naiveDatabase));
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS naive_spendings, naive_accounts");
                statement.execute("CREATE TABLE naive_accounts (id integer PRIMARY KEY,"
                        + " balance bigint NOT NULL CHECK (balance >= 0))");
                statement.execute("CREATE TABLE naive_spendings (id bigserial PRIMARY KEY,"
                        + " account_id integer NOT NULL REFERENCES naive_accounts (id),"
                        + " amount bigint NOT NULL, created_at timestamptz NOT NULL)");
                statement.execute("CREATE INDEX naive_spendings_account ON naive_spendings (account_id)");
                statement.execute("INSERT INTO naive_accounts SELECT g, " + HOT_BALANCE
                        + " FROM generate_series(1, " + accounts + ") g");
                statement.execute("VACUUM ANALYZE naive_accounts");
            }
            Path script = folder.resolve("naive.sql");
            Files.writeString(script, """
                    \\set aid random(1, :accounts)
                    BEGIN;
                    UPDATE naive_accounts SET balance = balance - 1 WHERE id = :aid AND balance >= 1;
                    INSERT INTO naive_spendings (account_id, amount, created_at) VALUES (:aid, 1, now());
                    COMMIT;
                    """);
            Path logs = Files.createDirectories(folder.resolve("pgbench-" + variant + "-" + connections));
            String output = Processes.run(
                    List.of(
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
                            Integer.toString(options.seconds()),
                            "-M",
                            "prepared",
                            "-D",
                            "accounts=" + accounts,
                            "-f",
                            script.toAbsolutePath().toString(),
                            "--log",
                            "--log-prefix=" + logs.resolve("tx").toAbsolutePath(),
                            naiveDatabase),
                    Duration.ofSeconds(options.seconds() + 60));
            Files.writeString(folder.resolve("pgbench-" + variant + "-" + connections + ".log"), output);
            Matcher tps = Pattern.compile("tps = ([0-9.]+) \\(without initial connection time\\)").matcher(output);
            if (!tps.find()) {
                throw new IllegalStateException("pgbench printed no tps:\n" + output);
            }
            long[] latencies = latencies(logs);
            String name = variant.equals("hot") ? "pgbench naive, hot account" : "pgbench naive, " + accounts + " accounts";
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
                    "");
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

    /** The server under test: {@code java [options] -jar pulseledger.jar serve}, as the README starts it. */
    static final class Server implements AutoCloseable {
        private final Process process;
        private final int port;
        private final String adminKey;
        private final HttpClient http = HttpClient.newHttpClient();

        private Server(Process process, int port, String adminKey) {
            this.process = process;
            this.port = port;
            this.adminKey = adminKey;
        }

        static Server start(Options options, String url, Path folder, String store) throws Exception {
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            String adminKey = Secrets.newAdminKey();
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(options.javaOptions());
            if (options.profile()) {
                command.add("-XX:StartFlightRecording=settings=profile,filename="
                        + folder.resolve(store + ".jfr").toAbsolutePath());
            }
            command.addAll(List.of("-jar", options.jar().toString(), "serve", "--port", Integer.toString(port)));
            System.out.println("  server: " + String.join(" ", command) + " --database-url <fresh " + store + "> --admin-key <generated>");
            command.addAll(List.of("--database-url", url, "--admin-key", adminKey));
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(folder.resolve("server.log").toFile())
                    .start();
            Server server = new Server(process, port, adminKey);
            server.awaitReady(Duration.ofSeconds(60));
            return server;
        }

        int port() {
            return port;
        }

        long pid() {
            return process.pid();
        }

        private void awaitReady(Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the server exited; see server.log");
                }
                try {
                    if (send(HttpRequest.newBuilder(uri("/health/ready")).GET()).statusCode() == 200) {
                        return;
                    }
                } catch (IOException e) {
                    // not listening yet
                }
                Thread.sleep(200);
            }
            throw new IllegalStateException("the server was not ready within " + timeout);
        }

        /** Fifty public services, a fifth of them spotlighted, through the operator API. */
        void putServices() throws Exception {
            String[] statuses = {"operational", "degraded_performance", "partial_outage", "major_outage", "under_maintenance"};
            for (int i = 1; i <= SERVICES; i++) {
                String body = String.format(
                        Locale.ROOT,
                        "{\"name\":\"Service %d\",\"description\":\"Bench service number %d, with a description of"
                                + " typical length.\",\"status\":\"%s\",\"spotlighted\":%b,\"position\":%d,\"public\":true}",
                        i,
                        i,
                        statuses[i % statuses.length],
                        i % 5 == 0,
                        i);
                HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/admin/services/svc-" + i))
                        .header("X-ApiKey", adminKey)
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString(body)));
                if (response.statusCode() / 100 != 2) {
                    throw new IllegalStateException("PUT service failed: " + response.statusCode() + " " + response.body());
                }
            }
        }

        /** The server's Prometheus metrics without labels, by name. */
        Map<String, Double> metrics() throws IOException, InterruptedException {
            Map<String, Double> values = new LinkedHashMap<>();
            for (String line : send(HttpRequest.newBuilder(uri("/metrics")).GET()).body().lines().toList()) {
                String[] parts = line.split(" ");
                if (!line.startsWith("#") && parts.length == 2 && !parts[0].contains("{")) {
                    values.put(parts[0], Double.parseDouble(parts[1]));
                }
            }
            return values;
        }

        private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
            return http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        }

        private URI uri(String path) {
            return URI.create("http://127.0.0.1:" + port + path);
        }

        /** A memory figure of the server process from /proc, in kB (VmRSS now, VmHWM the peak). */
        long procStatusKb(String field) {
            try {
                for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                    if (line.startsWith(field + ":")) {
                        return Long.parseLong(line.replaceAll("[^0-9]", ""));
                    }
                }
            } catch (IOException e) {
                return 0;
            }
            return 0;
        }

        /** SIGTERM: the server stops taking requests and commits what is queued, then exits. */
        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
        }
    }

    /**
     * CPU time used by the server process and by the PostgreSQL backends serving its database, read
     * from /proc: per request it is much less disturbed by other load on the machine than req/s.
     */
    record Cpu(long serverPid, Optional<String> database) {
        private static final double MICROS_PER_TICK = 10_000; // CLK_TCK is 100 on Linux

        /** CPU ticks per process at one moment. */
        record Snapshot(long server, Map<Long, Long> backends) {
            double serverMicrosSince(Snapshot before) {
                return (server - before.server()) * MICROS_PER_TICK;
            }

            double databaseMicrosSince(Snapshot before) {
                if (backends.isEmpty() && before.backends().isEmpty()) {
                    return Double.NaN;
                }
                long ticks = 0;
                for (Map.Entry<Long, Long> backend : backends.entrySet()) {
                    ticks += backend.getValue() - before.backends().getOrDefault(backend.getKey(), 0L);
                }
                return ticks * MICROS_PER_TICK;
            }
        }

        Snapshot snapshot() throws IOException {
            Map<Long, Long> backends = new LinkedHashMap<>();
            if (database.isPresent()) {
                String title = " " + database.get() + " ";
                try (var processes = Files.list(Path.of("/proc"))) {
                    for (Path process : processes.toList()) {
                        String name = process.getFileName().toString();
                        if (!name.chars().allMatch(Character::isDigit)) {
                            continue;
                        }
                        try {
                            String command = Files.readString(process.resolve("cmdline")).replace('\0', ' ');
                            if (command.startsWith("postgres: ") && command.contains(title)) {
                                backends.put(Long.parseLong(name), ticks(Long.parseLong(name)));
                            }
                        } catch (IOException e) {
                            // the process ended meanwhile
                        }
                    }
                }
            }
            return new Snapshot(ticks(serverPid), backends);
        }

        /** utime + stime, fields 14 and 15 of /proc/PID/stat (counted after the command's closing parenthesis). */
        private static long ticks(long pid) throws IOException {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        }
    }

    /** What the numbers were measured on; a busy machine (load average above the cores) skews them. */
    static final class Machine {
        static String describe(Options options) throws Exception {
            String cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(line -> line.startsWith("model name"))
                    .findFirst()
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .orElse("unknown CPU");
            String memory = Files.readAllLines(Path.of("/proc/meminfo")).stream()
                    .filter(line -> line.startsWith("MemTotal"))
                    .findFirst()
                    .map(line -> Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024 / 1024 + " GB")
                    .orElse("?");
            String postgres = "not used";
            if (options.stores().contains("postgresql")) {
                String url = "jdbc:postgresql://" + options.pgHost() + ":" + options.pgPort() + "/postgres?user="
                        + options.pgUser();
                try (Connection connection = DriverManager.getConnection(url);
                        Statement statement = connection.createStatement();
                        ResultSet rs = statement.executeQuery("SHOW server_version")) {
                    rs.next();
                    postgres = "PostgreSQL " + rs.getString(1);
                }
            }
            return String.format(
                    Locale.ROOT,
                    "Machine: %d cores (%s), %s RAM, Linux %s; Java %s; %s; %s; server JVM options: %s%n"
                            + "Run: %d s per case after %d s of warm-up; load average at the start: %s%n",
                    Runtime.getRuntime().availableProcessors(),
                    cpu,
                    memory,
                    Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim(),
                    Runtime.version(),
                    Processes.run(List.of("wrk", "-v"), Duration.ofSeconds(10), Map.of(), false) // exits 1
                            .lines()
                            .findFirst()
                            .orElse("wrk")
                            .replaceAll(" Copyright.*", ""),
                    postgres,
                    options.javaOptions().isEmpty() ? "(none)" : String.join(" ", options.javaOptions()),
                    options.seconds(),
                    options.warmupSeconds(),
                    loadAverage());
        }

        static String loadAverage() throws IOException {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        }
    }

    /** Runs a command to its end and returns what it printed. */
    static final class Processes {
        static String run(List<String> command, Duration timeout) throws IOException, InterruptedException {
            return run(command, timeout, Map.of(), true);
        }

        static String run(
                List<String> command, Duration timeout, Map<String, String> environment, boolean requireSuccess)
                throws IOException, InterruptedException {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(environment);
            Process process = builder.start();
            StringWriter output = new StringWriter();
            Thread reader = Thread.ofVirtual().start(() -> {
                try (PrintWriter writer = new PrintWriter(output)) {
                    process.inputReader().lines().forEach(writer::println);
                }
            });
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out: " + String.join(" ", command));
            }
            reader.join();
            if (requireSuccess && process.exitValue() != 0) {
                throw new IllegalStateException("exit " + process.exitValue() + ": " + String.join(" ", command) + "\n" + output);
            }
            return output.toString();
        }
    }
}
