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
 * Everything measured on one store: seed, serve, load in rounds, stop, verify. Each round measures every
 * case once, a case next to its yardstick (spends and naive pgbench, reserve+settle and spends), so that
 * the report's ratios come from pairs measured under the same load. With {@code --baseline-jar} a second
 * server (that jar, its own database, the same seed) runs beside the first, and each spend and
 * reserve+settle case is measured on one and then at once on the other in every round.
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
                postgres.get().prepareNaive();
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
            serveAndLoad(subjects, postgres);
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

    private void serveAndLoad(List<Subject> subjects, Optional<Postgres> postgres) throws Exception {
        try {
            for (Subject subject : subjects) {
                subject.start(options, folder, store);
                subject.server.putServices();
                warmUp(subject);
            }
            for (int round = 1; round <= options.rounds(); round++) {
                System.out.println("  -- " + store + ", round " + round + " of " + options.rounds());
                round(subjects, postgres, round);
            }
            Subject main = subjects.getFirst();
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

    /**
     * One round: every case once, each after its own unmeasured load; the yardstick of each ratio in the
     * same round (GET /health/live first; naive pgbench after the spends on the same accounts; the spends
     * before reserve+settle on the same accounts; the baseline jar right after this one).
     */
    private void round(List<Subject> subjects, Optional<Postgres> postgres, int round) throws Exception {
        Subject main = subjects.getFirst();
        int readers = options.connections().stream().max(Integer::compare).orElse(64);
        if (options.wants("live")) {
            measure(main, Report.LIVE, "GET", "/health/live", null, readers, round);
        }
        if (options.wants("balance")) {
            measure(main, Report.BALANCE, "GET", "/api/tokens/balance", main.seed.hotKey(), readers, round);
        }
        if (options.wants("pulse")) {
            measure(main, Report.PULSE, "GET", "/api/pulse", main.seed.hotKey(), readers, round);
            if (round == 1) {
                String encoding = main.server.pulseEncodingWhenGzipAccepted(main.seed.hotKey());
                report.check(encoding.equals("gzip"), store + ": the pulse feed is sent gzipped to a client that"
                        + " accepts gzip (Content-Encoding: " + encoding + ")");
            }
            measure(main, Report.PULSE_GZIP, "GET", "/api/pulse", main.seed.hotKey(), readers, "gzip", round);
        }
        for (int connections : options.connections()) {
            for (boolean hot : List.of(true, false)) {
                if (options.wants(hot ? "spend-hot" : "spend-spread")) {
                    for (Subject subject : subjects) {
                        String key = hot ? subject.seed.hotKey() : subject.spreadKeysArgument();
                        Subject.Told told = hot ? subject.hotSpends : subject.spreadSpends;
                        measure(subject, hot ? Report.SPEND_HOT : spreadName, "POST", "/api/tokens/spend/1", key,
                                        connections, round)
                                .runs()
                                .forEach(run -> told.add(run.count(201), connections));
                    }
                }
                if (options.wants("reserve-settle")) {
                    for (Subject subject : subjects) {
                        reserveThenSettle(subject, hot, connections, round);
                    }
                }
                if (postgres.isPresent() && options.wants("naive")) {
                    report.add(postgres.get().naive(hot ? "hot" : "spread", connections, folder, round));
                }
            }
        }
        if (options.wants("mixed")) {
            mixed(main, readers, round);
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
        subject.hotSpends.answered++; // the spend that found the lock gone
        LockedAccount.summary(runs).forEach(text -> report.target("PostgreSQL, one account locked: " + text));
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
     * Reserve 10 then settle 7, on the hot account or over the spread accounts, in completed pairs (a
     * reserve and its settle) per second, so that its ratio to the plain spends on the same accounts in the
     * same round shows what the second request costs.
     */
    private void reserveThenSettle(Subject subject, boolean hot, int connections, int round) throws Exception {
        Server server = subject.server;
        String key = hot ? subject.seed.hotKey() : subject.spreadKeysArgument();
        Subject.Told settles = hot ? subject.hotSettles : subject.spreadSettles;
        if (options.caseWarmupSeconds() > 0) {
            Wrk.Run settling = Wrk.run(folder.resolve("wrk.log"), "bench/reserve.lua", server.port(), "POST",
                    "/api/tokens/reservations", key, connections, options.caseWarmupSeconds(), true);
            settles.add(settling.count(200), connections);
        }
        Map<String, Double> metricsBefore = server.metrics();
        Cpu.Snapshot before = subject.cpu.snapshot();
        Wrk.Run run = Wrk.run(folder.resolve("wrk.log"), "bench/reserve.lua", server.port(), "POST",
                "/api/tokens/reservations", key, connections, options.seconds(), true);
        Cpu.Snapshot after = subject.cpu.snapshot();
        Map<String, Double> metricsAfter = server.metrics();
        settles.add(run.count(200), connections);
        double pairsPerSecond = run.count(200) / run.seconds();
        report.add(new Result(
                store,
                subject.name(hot ? Report.RESERVE_HOT : Report.reserveSpread(options.accounts())),
                connections,
                pairsPerSecond,
                run.p50Micros() / 1000.0,
                run.p99Micros() / 1000.0,
                server.procStatusKb("VmRSS"),
                after.serverMicrosSince(before) / Math.max(1, run.count(200)),
                after.databaseMicrosSince(before) / Math.max(1, run.count(200)),
                run.statusText(),
                batches(metricsBefore, metricsAfter),
                OptionalLong.empty(),
                round));
        report.check(
                run.errors() == 0 && run.count(201) + run.count(200) == run.requests(),
                store + subject.name("") + ": every reserve answered 201 and every settle 200 ("
                        + (hot ? "hot account" : options.accounts() + " accounts") + ", round " + round + "): "
                        + run.statusText());
    }

    /** The mixed LLM-provider case ({@link MixedLoad}) on the mixed accounts, after its own unmeasured load. */
    private void mixed(Subject subject, int connections, int round) throws Exception {
        int port = subject.server.port();
        if (options.caseWarmupSeconds() > 0) {
            MixedLoad.run(port, subject.seed.mixedKeys(), connections, options.caseWarmupSeconds(), -round,
                    subject.mixed);
        }
        Cpu.Snapshot before = subject.cpu.snapshot();
        MixedLoad.Run run = MixedLoad.run(port, subject.seed.mixedKeys(), connections, options.seconds(), round,
                subject.mixed);
        Cpu.Snapshot after = subject.cpu.snapshot();
        long rss = subject.server.procStatusKb("VmRSS");
        long operations = run.latencies().get(MixedLoad.Kind.SETTLE).length
                + run.latencies().get(MixedLoad.Kind.SPEND).length
                + run.latencies().get(MixedLoad.Kind.BALANCE).length
                + run.latencies().get(MixedLoad.Kind.REVERT).length;
        report.add(new Result(store, Report.MIXED, connections, operations / run.seconds(),
                Double.NaN, Double.NaN, rss,
                after.serverMicrosSince(before) / Math.max(1, operations),
                after.databaseMicrosSince(before) / Math.max(1, operations),
                run.requests() + " requests" + (run.errors() > 0 ? ", socket-errors:" + run.errors() : ""),
                "", OptionalLong.empty(), round));
        for (MixedLoad.Kind kind : MixedLoad.Kind.values()) {
            report.add(new Result(store, Report.mixedKind(kind), connections, run.perSecond(kind),
                    run.percentileMicros(kind, 50) / 1000.0, run.percentileMicros(kind, 99) / 1000.0, rss,
                    Double.NaN, Double.NaN, run.statusText(kind), "", OptionalLong.empty(), round));
        }
        report.check(run.allExpected(), store + ": mixed case, round " + round
                + ": every reserve answered 201, settle 200, spend 201, balance 200, revert 200, no socket error");
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

    private Measured measure(
            Subject subject, String name, String method, String path, String key, int connections, int round)
            throws Exception {
        return measure(subject, name, method, path, key, connections, "", round);
    }

    /**
     * As above, with {@code acceptEncoding} sent as every request's Accept-Encoding when not empty. The
     * case's own load runs unmeasured for --case-warmup-seconds first: after a switch of request kind
     * HotSpot compiles the request path again, which took most of the next 10 s (GET balance on
     * PostgreSQL right after spends: 24,442/s in those 10 s, 28,562/s in the 10 s after).
     */
    private Measured measure(
            Subject subject, String name, String method, String path, String key, int connections, String acceptEncoding,
            int round) throws Exception {
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
                walFilesMade,
                round));
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
     * After the servers stopped: the jar's own {@code verify} finds every invariant holding; on the hot
     * account and on the spread accounts the ledger holds every spend (1 token) and settle (7 tokens) whose
     * answer a client counted, plus at most one request per connection that was still in flight when wrk
     * stopped (its answer was never read, but it may well have committed); and in each group of accounts,
     * the mixed case's too, every granted token is in a balance, held, or spent and not reverted.
     */
    private void verify(Subject subject) throws Exception {
        String who = subject.name(store);
        Subject.Verdict verdict = subject.verify();
        report.check(verdict.passed(), who + ": `verify` passes (" + verdict.output().lines().reduce((a, b) -> b).orElse("") + ")");
        try (Database database = Seed.openAsIs(subject.url)) {
            checkGroup(who, "hot account", database.read(c -> Seed.tally(c, Seed.HOT)), subject.hotSpends,
                    subject.hotSettles);
            checkGroup(who, options.accounts() + " accounts", database.read(c -> Seed.tally(c, Seed.SPREAD)),
                    subject.spreadSpends, subject.spreadSettles);
            if (options.wants("mixed") && !subject.baseline()) {
                Seed.Tally mixed = database.read(c -> Seed.tally(c, Seed.MIXED));
                MixedLoad.Told told = subject.mixed;
                report.check(mixed.accountedFor() && mixed.granted() == mixed.accounts() * Bench.SPREAD_BALANCE,
                        who + ": mixed case, " + mixed.accounts() + " accounts, tokens accounted for: "
                                + mixed.equation());
                report.check(mixed.spendings() == told.spendings.get() && mixed.spent() == told.spent.get()
                                && mixed.reverted() == told.reverted.get() && mixed.held() == 0
                                && told.unexpected.get() == 0,
                        String.format(
                                "%s: mixed case: the ledger holds the %d spendings (%d tokens) and %d tokens"
                                        + " reverted the clients were told of, nothing still held: %d, %d, %d, held %d",
                                who, told.spendings.get(), told.spent.get(), told.reverted.get(), mixed.spendings(),
                                mixed.spent(), mixed.reverted(), mixed.held()));
            }
        }
    }

    private void checkGroup(String who, String group, Seed.Tally tally, Subject.Told spends, Subject.Told settles) {
        report.check(
                spends.matches(tally.plainSpendings()) && settles.matches(tally.settled()),
                String.format(
                        "%s: %s: %d spends and %d settles in the ledger; clients counted %d × 201 and %d × 200"
                                + " (+ ≤ %d and %d in flight at stop)",
                        who, group, tally.plainSpendings(), tally.settled(), spends.answered, settles.answered,
                        spends.inFlightBound, settles.inFlightBound));
        report.check(
                tally.accountedFor() && tally.spent() == tally.plainSpendings() + 7 * tally.settled()
                        && tally.reverted() == 0,
                String.format("%s: %s: tokens accounted for (%s), spendings of 1 token per spend and 7 per settle",
                        who, group, tally.equation()));
    }
}
