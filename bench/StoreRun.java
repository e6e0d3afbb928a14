import dev.pulseledger.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Everything measured on one store: seed, serve, load, stop, verify. With {@code --baseline-jar} a
 * second server (that jar, its own database, the same seed) runs beside the first, and each spend case
 * is measured on one and then at once on the other, so both see the same machine.
 */
final class StoreRun {
    private final Options options;
    private final String store;
    private final Report report;
    private final Path folder;
    private final String spreadName;

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
            if (postgres.isPresent() && options.wants("naive")) {
                for (String variant : List.of("hot", "spread")) {
                    for (int connections : options.connections()) {
                        report.add(postgres.get().naive(variant, connections, folder));
                    }
                }
            }
            List<Subject> subjects = new ArrayList<>();
            subjects.add(subject("", options.jar(), "bench", postgres.map(Postgres::appDatabase)));
            if (options.baselineJar().isPresent()) {
                subjects.add(subject(
                        "(baseline jar)",
                        options.baselineJar().get(),
                        "baseline",
                        postgres.map(Postgres::baselineDatabase)));
            }
            for (Subject subject : subjects) {
                subject.seed(options, folder);
            }
            serveAndLoad(subjects);
            for (Subject subject : subjects) {
                verify(subject);
            }
        } finally {
            if (postgres.isPresent()) {
                postgres.get().drop();
            }
        }
    }

    private Subject subject(String label, Path jar, String file, Optional<String> database) throws Exception {
        Path sqliteFile = folder.resolve(file + ".db").toAbsolutePath();
        for (String suffix : List.of("", "-wal", "-shm")) {
            Files.deleteIfExists(Path.of(sqliteFile + suffix)); // an earlier run into the same folder
        }
        String url = database.map(name -> Postgres.jdbcUrl(options, name)).orElse("jdbc:sqlite:" + sqliteFile);
        return new Subject(label, jar, url, database);
    }

    private void serveAndLoad(List<Subject> subjects) throws Exception {
        try {
            for (Subject subject : subjects) {
                subject.start(options, folder, store);
                subject.server.putServices();
                warmUp(subject);
            }
            Subject main = subjects.getFirst();
            int readers = options.connections().stream().max(Integer::compare).orElse(64);
            if (options.wants("live")) {
                measure(main, "GET /health/live", "GET", "/health/live", null, readers);
            }
            if (options.wants("balance")) {
                measure(main, "GET balance", "GET", "/api/tokens/balance", main.seed.hotKey(), readers);
            }
            if (options.wants("pulse")) {
                measure(main, Report.PULSE, "GET", "/api/pulse", main.seed.hotKey(), readers);
                String encoding = main.server.pulseEncodingWhenGzipAccepted(main.seed.hotKey());
                report.check(encoding.equals("gzip"), store + ": the pulse feed is sent gzipped to a client that"
                        + " accepts gzip (Content-Encoding: " + encoding + ")");
                measure(main, Report.PULSE_GZIP, "GET", "/api/pulse", main.seed.hotKey(), readers, "gzip");
            }
            for (int connections : options.connections()) {
                if (options.wants("spend-hot")) {
                    for (Subject subject : subjects) {
                        measure(subject, "spend, hot account", "POST", "/api/tokens/spend/1",
                                        subject.seed.hotKey(), connections)
                                .runs()
                                .forEach(run -> subject.countHot(run, connections));
                    }
                }
            }
            for (int connections : options.connections()) {
                if (options.wants("spend-spread")) {
                    for (Subject subject : subjects) {
                        measure(subject, spreadName, "POST", "/api/tokens/spend/1",
                                        subject.spreadKeysArgument(), connections)
                                .runs()
                                .forEach(run -> subject.countSpread(run, connections));
                    }
                }
            }
            for (int connections : options.connections()) {
                if (options.wants("reserve-settle")) {
                    reserveThenSettle(main, connections);
                }
            }
            if (options.wants("locked") && store.equals("postgresql")) {
                lockedAccount(main);
            }
            for (Subject subject : subjects) {
                report.peakRssKb.put(subject.name(store), subject.server.procStatusKb("VmHWM"));
            }
        } finally {
            for (Subject subject : subjects) {
                if (subject.server != null) {
                    subject.server.close();
                }
            }
        }
    }

    private void warmUp(Subject subject) throws Exception {
        if (options.warmupSeconds() <= 0) {
            return;
        }
        int seconds = options.warmupSeconds();
        wrk(subject, "GET", "/health/live", null, 32, seconds, false);
        wrk(subject, "GET", "/api/tokens/balance", subject.seed.hotKey(), 32, seconds, false);
        wrk(subject, "GET", "/api/pulse", subject.seed.hotKey(), 32, seconds, false);
        wrk(subject, "GET", "/api/pulse", subject.seed.hotKey(), 32, seconds, false, "gzip");
        subject.countHot(wrk(subject, "POST", "/api/tokens/spend/1", subject.seed.hotKey(), 32, seconds, true), 32);
        // Spends over many accounts take paths the hot account does not (a batch of many accounts, the key
        // cache's misses); without their own warm-up the JIT still compiled them for ~30 s into that case.
        subject.countSpread(
                wrk(subject, "POST", "/api/tokens/spend/1", subject.spreadKeysArgument(), 32, seconds, true), 32);
    }

    /** Issue 19: the other accounts' spends before and while one account is locked from outside. */
    private void lockedAccount(Subject subject) throws Exception {
        int connections = options.connections().stream().max(Integer::compare).orElse(32);
        LockedAccount.Runs runs = LockedAccount.run(
                subject.server, subject.url, subject.seed, folder, connections, (name, key, clients) -> {
                    Wrk.Run run = wrk(subject, "POST", "/api/tokens/spend/1", key, clients, options.seconds(), true);
                    report.add(new Result(
                            store,
                            name,
                            clients,
                            run.requestsPerSecond(),
                            run.p50Micros() / 1000.0,
                            run.p99Micros() / 1000.0,
                            subject.server.procStatusKb("VmRSS"),
                            Double.NaN,
                            Double.NaN,
                            run.statusText(),
                            "",
                            OptionalLong.empty()));
                    return run;
                });
        for (Wrk.Run others : List.of(runs.othersBefore(), runs.othersLocked())) {
            subject.countSpread(others, connections);
        }
        for (Wrk.Run locked : List.of(runs.lockedBefore(), runs.lockedLocked())) {
            subject.countHot(locked, LockedAccount.LOCKED_CONNECTIONS);
        }
        subject.hotSpent201++; // the spend that found the lock gone
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
    private void reserveThenSettle(Subject subject, int connections) throws Exception {
        Server server = subject.server;
        Map<String, Double> metricsBefore = server.metrics();
        Wrk.Run run = Wrk.run(folder.resolve("wrk.log"), "bench/reserve.lua", server.port(), "POST",
                "/api/tokens/reservations", subject.seed.reserveKey(), connections, options.seconds(), true);
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
                batches(metricsBefore, metricsAfter),
                OptionalLong.empty()));
        report.check(
                run.errors() == 0 && run.count(201) + run.count(200) == run.requests(),
                store + ": every reserve answered 201 and every settle 200 at " + connections + " connections: "
                        + run.statusText());
    }

    /**
     * The group commit's batches during a case, from the server's own metrics; the longest is Micrometer's
     * decaying maximum, so it may come from the two minutes before the case.
     */
    private static String batches(Map<String, Double> before, Map<String, Double> after) {
        double count = delta(before, after, "pulseledger_spend_batch_size_count");
        if (count == 0) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "%.0f × %.1f, %.2f ms (%.0f ms)",
                count,
                delta(before, after, "pulseledger_spend_batch_size_sum") / count,
                1000 * delta(before, after, "pulseledger_spend_batch_seconds_sum") / count,
                1000 * after.getOrDefault("pulseledger_spend_batch_seconds_max", 0.0));
    }

    private static double delta(Map<String, Double> before, Map<String, Double> after, String name) {
        return after.getOrDefault(name, 0.0) - before.getOrDefault(name, 0.0);
    }

    /** A measured case: the unmeasured run of the same load just before it, if any, and the measured run. */
    private record Measured(Optional<Wrk.Run> settling, Wrk.Run measured) {
        /** Both runs, for counting the spends they made. */
        List<Wrk.Run> runs() {
            return settling.map(run -> List.of(run, measured)).orElse(List.of(measured));
        }
    }

    private Measured measure(Subject subject, String name, String method, String path, String key, int connections)
            throws Exception {
        return measure(subject, name, method, path, key, connections, "");
    }

    /**
     * As above, with {@code acceptEncoding} sent as every request's Accept-Encoding when not empty. The
     * case's own load runs unmeasured for --case-warmup-seconds first: after a switch of request kind
     * HotSpot compiles the request path again, which took most of the next 10 s (GET balance on
     * PostgreSQL right after spends: 24,442/s in those 10 s, 28,562/s in the 10 s after).
     */
    private Measured measure(
            Subject subject, String name, String method, String path, String key, int connections, String acceptEncoding)
            throws Exception {
        boolean spends = method.equals("POST");
        Optional<Wrk.Run> settling = options.caseWarmupSeconds() > 0
                ? Optional.of(wrk(subject, method, path, key, connections, options.caseWarmupSeconds(), spends,
                        acceptEncoding))
                : Optional.empty();
        Map<String, Double> metricsBefore = subject.server.metrics();
        OptionalLong walFilesBefore = walFiles(subject);
        Cpu.Snapshot before = subject.cpu.snapshot();
        Wrk.Run run = wrk(subject, method, path, key, connections, options.seconds(), spends, acceptEncoding);
        Cpu.Snapshot after = subject.cpu.snapshot();
        OptionalLong walFilesMade = WalMeter.grownBy(walFilesBefore, walFiles(subject));
        Map<String, Double> metricsAfter = subject.server.metrics();
        report.add(new Result(
                store,
                subject.name(name),
                connections,
                run.requestsPerSecond(),
                run.p50Micros() / 1000.0,
                run.p99Micros() / 1000.0,
                subject.server.procStatusKb("VmRSS"),
                after.serverMicrosSince(before) / run.requests(),
                after.databaseMicrosSince(before) / run.requests(),
                run.statusText(),
                batches(metricsBefore, metricsAfter),
                walFilesMade));
        return new Measured(settling, run);
    }

    /** The files in pg_wal of the subject's PostgreSQL ({@link WalMeter#walFiles}); empty on SQLite. */
    private static OptionalLong walFiles(Subject subject) throws SQLException {
        return subject.database.isPresent() ? WalMeter.walFiles(subject.url) : OptionalLong.empty();
    }

    private Wrk.Run wrk(
            Subject subject, String method, String path, String key, int connections, int seconds, boolean tally)
            throws Exception {
        return wrk(subject, method, path, key, connections, seconds, tally, "");
    }

    private Wrk.Run wrk(Subject subject, String method, String path, String key, int connections, int seconds,
            boolean tally, String acceptEncoding) throws Exception {
        return Wrk.run(folder.resolve("wrk.log"), "bench/wrk.lua", subject.server.port(), method, path, key,
                connections, seconds, tally, acceptEncoding);
    }

    /**
     * After the servers stopped: the jar's own {@code verify} finds every invariant holding, and each
     * account lost exactly the spends whose 201 a client counted, plus at most one request per connection
     * that was still in flight when wrk stopped (its answer was never read, but it may well have committed).
     */
    private void verify(Subject subject) throws Exception {
        String who = subject.name(store);
        Subject.Verdict verdict = subject.verify();
        report.check(verdict.passed(), who + ": `verify` passes (" + verdict.output().lines().reduce((a, b) -> b).orElse("") + ")");
        try (Database database = Seed.openAsIs(subject.url)) {
            long[] spent = database.read(connection -> subject.seed.spent(connection));
            long hotSpent = spent[0];
            long spreadSpent = spent[1];
            long spendings = spent[2];
            report.check(
                    hotSpent >= subject.hotSpent201 && hotSpent - subject.hotSpent201 <= subject.hotInFlightBound,
                    String.format(
                            "%s: hot account spent %d tokens; clients counted %d × 201 (+ ≤ %d in flight at stop)",
                            who, hotSpent, subject.hotSpent201, subject.hotInFlightBound));
            report.check(
                    spreadSpent >= subject.spreadSpent201
                            && spreadSpent - subject.spreadSpent201 <= subject.spreadInFlightBound,
                    String.format(
                            "%s: %d accounts spent %d tokens; clients counted %d × 201 (+ ≤ %d in flight at stop)",
                            who, options.accounts(), spreadSpent, subject.spreadSpent201, subject.spreadInFlightBound));
            report.check(
                    spendings == hotSpent + spreadSpent,
                    String.format("%s: %d spendings recorded for %d tokens spent at 1 token each", who, spendings,
                            hotSpent + spreadSpent));
        }
    }
}
