import dev.pulseledger.store.Database;
import dev.pulseledger.verify.LedgerVerifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Everything measured on one store: seed, serve, load, stop, verify. */
final class StoreRun {
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
            for (int connections : options.connections()) {
                if (options.wants("reserve-settle")) {
                    reserveThenSettle(server, seed, connections);
                }
            }
            if (options.wants("locked") && store.equals("postgresql")) {
                lockedAccount(server, url, seed);
            }
            report.peakRssKb.put(store, server.procStatusKb("VmHWM"));
        }
    }

    /** Issue 19: the other accounts' spends before and while one account is locked from outside. */
    private void lockedAccount(Server server, String url, Seed seed) throws Exception {
        int connections = options.connections().stream().max(Integer::compare).orElse(32);
        LockedAccount.Runs runs = LockedAccount.run(server, url, seed, folder, connections, (name, key, clients) -> {
            WrkRun run = wrk(server, "POST", "/api/tokens/spend/1", key, clients, options.seconds(), true);
            report.add(new Result(
                    store,
                    name,
                    clients,
                    run.requestsPerSecond(),
                    run.p50Micros() / 1000.0,
                    run.p99Micros() / 1000.0,
                    server.procStatusKb("VmRSS"),
                    Double.NaN,
                    Double.NaN,
                    run.statusText(),
                    ""));
            return run;
        });
        for (WrkRun others : List.of(runs.othersBefore(), runs.othersLocked())) {
            spreadSpent201 += others.count(201);
            spreadInFlightBound += connections;
        }
        for (WrkRun locked : List.of(runs.lockedBefore(), runs.lockedLocked())) {
            tallyHot(locked, LockedAccount.LOCKED_CONNECTIONS);
        }
        hotSpent201++; // the spend that found the lock gone
        LockedAccount.summary(runs).forEach(report::target);
        report.check(
                runs.othersLocked().count(201) == runs.othersLocked().requests()
                        && runs.othersLocked().errors() == 0,
                "postgresql: every spend of the other accounts while one was locked answered 201: "
                        + runs.othersLocked().statusText());
        long locked5xx = runs.lockedLocked().statuses().entrySet().stream()
                .filter(e -> e.getKey() >= 500 && e.getKey() != 503)
                .mapToLong(e -> e.getValue())
                .sum();
        report.check(
                locked5xx == 0 && runs.lockedLocked().errors() == 0,
                "postgresql: the locked account's callers got no 5xx but 503 and no timeout: "
                        + runs.lockedLocked().statusText());
    }

    /**
     * Issue 15: reserve 10 then settle 7 on one account, reported in units of work (a reserve and its
     * settle) per second, so that its ratio to the plain spend case shows what the second request costs.
     */
    private void reserveThenSettle(Server server, Seed seed, int connections) throws Exception {
        Map<String, Double> metricsBefore = server.metrics();
        WrkRun run = wrk(server, "bench/reserve.lua", "POST", "/api/tokens/reservations", seed.reserveKey(),
                connections, options.seconds(), true);
        Map<String, Double> metricsAfter = server.metrics();
        double unitsPerSecond = run.count(200) / (double) options.seconds();
        report.add(new Result(
                store,
                Report.RESERVE_SETTLE,
                connections,
                unitsPerSecond,
                run.p50Micros() / 1000.0,
                run.p99Micros() / 1000.0,
                server.procStatusKb("VmRSS"),
                Double.NaN,
                Double.NaN,
                run.statusText(),
                batches(metricsBefore, metricsAfter)));
        report.check(
                run.errors() == 0 && run.count(201) + run.count(200) == run.requests(),
                store + ": every reserve answered 201 and every settle 200 at " + connections + " connections: "
                        + run.statusText());
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
        WrkRun run =
                wrk(server, "bench/wrk.lua", method, path, key, connections, options.seconds(), method.equals("POST"));
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
        return wrk(server, "bench/wrk.lua", method, path, key, connections, seconds, tally);
    }

    /** Runs wrk with {@code script}; {@code tally} makes it count every status (dearer for the client). */
    private WrkRun wrk(
            Server server,
            String script,
            String method,
            String path,
            String key,
            int connections,
            int seconds,
            boolean tally)
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
                Path.of(script).toAbsolutePath().toString(),
                "http://127.0.0.1:" + server.port() + path,
                "--"));
        if (script.endsWith("wrk.lua")) {
            command.addAll(List.of(method, path));
        }
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
                Long.parseLong(fields.get("max_us")),
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

    /** What wrk's script reported for one run. */
    record WrkRun(
            double requestsPerSecond,
            long p50Micros,
            long p99Micros,
            long maxMicros,
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
}
