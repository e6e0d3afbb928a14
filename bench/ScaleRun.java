import dev.pulseledger.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The scale case (PostgreSQL): one database per size of {@code --scale-accounts} (default 10,000, 100,000
 * and 1,000,000 accounts) with {@code --scale-spendings} spendings each (default 10, so 10,000,000 at
 * 1M), seeded set-based with generate_series. A server runs on each database at once, and in each of
 * {@link #ROUNDS} rounds every size in turn takes spends, balance reads and the first page of spending
 * history from 10,000 of its accounts picked at random; the figures are the medians of the rounds, so the
 * sizes are compared back to back under the same load. Then {@code verify} checks each whole ledger, timed.
 */
final class ScaleRun {
    private static final long BALANCE = 1_000_000_000L;
    private static final int SAMPLE = 10_000;
    private static final long CHUNK = 100_000;
    private static final long MONTH_MILLIS = Duration.ofDays(30).toMillis();
    private static final int ROUNDS = 3;
    private static final List<String[]> REQUESTS = List.of(
            new String[] {"spend", "POST", "/api/tokens/spend/1"},
            new String[] {"GET balance", "GET", "/api/tokens/balance"},
            new String[] {"GET spendings, first page of 20", "GET", "/api/tokens/spendings?limit=20"});

    /** The numbers of one step, the same six parameters for every statement of {@link #GROW}. */
    private static final String STEP = "WITH p AS (SELECT ?::bigint AS lo, ?::bigint AS hi, ?::bigint AS now,"
            + " ?::integer AS per, ?::bigint AS balance, ?::bigint AS month) ";

    /** The rows of accounts {@code lo < i <= hi}: as bench/Seed writes them, plus {@code per} spendings of 1 token each. */
    private static final List<String> GROW = List.of(
            """
            INSERT INTO accounts (id, name, plan_id, balance, status, created_at, period_anchor, period_start,
                period_end, period_granted, due_at)
            SELECT 'acct_' || lpad(i::text, 26, '0'), 'scale ' || i, 'free', p.balance - p.per, 'active',
                p.now, p.now, p.now, p.now + p.month, 0, p.now + p.month
            FROM p, generate_series(p.lo + 1, p.hi) i""",
            """
            INSERT INTO grants (id, account_id, kind, amount, remaining, expired, expires_at, period_start, created_at)
            SELECT 'gr_' || lpad(i::text, 26, '0'), 'acct_' || lpad(i::text, 26, '0'), 'credit', p.balance,
                p.balance - p.per, 0, NULL, NULL, p.now - p.month
            FROM p, generate_series(p.lo + 1, p.hi) i""",
            """
            INSERT INTO api_keys (id, account_id, name, key_hash, prefix, created_at)
            SELECT 'key_' || lpad(i::text, 26, '0'), 'acct_' || lpad(i::text, 26, '0'), 'scale',
                encode(sha256(convert_to('pl_' || lpad(i::text, 32, '0'), 'UTF8')), 'hex'),
                left('pl_' || lpad(i::text, 32, '0'), 10), p.now
            FROM p, generate_series(p.lo + 1, p.hi) i""",
            """
            INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, grant_id, reason, created_at)
            SELECT 'acct_' || lpad(i::text, 26, '0'), 'credit', p.balance, p.balance, NULL,
                'gr_' || lpad(i::text, 26, '0'), 'opening balance', p.now - p.month
            FROM p, generate_series(p.lo + 1, p.hi) i""",
            """
            INSERT INTO spendings (id, account_id, amount, status, created_at)
            SELECT 'sp_' || lpad((i * 1000 + n)::text, 26, '0'), 'acct_' || lpad(i::text, 26, '0'), 1, 'active',
                p.now - p.month + n * 60000
            FROM p, generate_series(p.lo + 1, p.hi) i, generate_series(1, p.per) n ORDER BY i, n""",
            """
            INSERT INTO spending_grants (spending_id, grant_id, amount, returned)
            SELECT 'sp_' || lpad((i * 1000 + n)::text, 26, '0'), 'gr_' || lpad(i::text, 26, '0'), 1, 0
            FROM p, generate_series(p.lo + 1, p.hi) i, generate_series(1, p.per) n""",
            """
            INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, grant_id, reason, created_at)
            SELECT 'acct_' || lpad(i::text, 26, '0'), 'spend', -1, p.balance - n,
                'sp_' || lpad((i * 1000 + n)::text, 26, '0'), NULL, NULL, p.now - p.month + n * 60000
            FROM p, generate_series(p.lo + 1, p.hi) i, generate_series(1, p.per) n ORDER BY i, n""");

    private final Options options;
    private final Report report;
    private final Path folder;

    ScaleRun(Options options, Report report) {
        this.options = options;
        this.report = report;
        this.folder = options.out().resolve("scale");
    }

    /** One size: its database, its server and the keys of the accounts its requests come from. */
    private record Size(int accounts, String url, String keys, List<List<Wrk.Run>> runs) {
        String text(int spendings) {
            return String.format("%,d accounts, %,d spendings", accounts, (long) accounts * spendings);
        }
    }

    void run() throws Exception {
        Files.createDirectories(folder);
        System.out.println("== scale (postgresql)");
        Postgres postgres = new Postgres(options);
        List<Server> servers = new ArrayList<>();
        try {
            List<Size> sizes = new ArrayList<>();
            for (int accounts : options.scaleAccounts()) {
                String url = Postgres.jdbcUrl(options, postgres.createDatabase("scale_" + accounts));
                seed(url, accounts);
                sizes.add(new Size(accounts, url, keys(accounts), new ArrayList<>()));
            }
            for (Size size : sizes) {
                servers.add(Server.start(options, options.jar(), size.url(), folder, "scale-" + size.accounts()));
            }
            measure(sizes, servers);
            for (Server server : servers) {
                server.close();
            }
            servers.clear();
            for (Size size : sizes) {
                verify(size);
            }
        } finally {
            for (Server server : servers) {
                server.close();
            }
            postgres.drop();
        }
    }

    private void seed(String url, int accounts) throws Exception {
        long start = System.nanoTime();
        try (Database database = Seed.open(url)) {
            // In transactions of at most CHUNK accounts, so that no statement nears the statement timeout.
            for (long lo = 0; lo < accounts; lo += CHUNK) {
                long from = lo;
                long to = Math.min(accounts, lo + CHUNK);
                database.runInTransaction(connection -> {
                    for (String sql : GROW) {
                        try (PreparedStatement ps = connection.prepareStatement(STEP + sql)) {
                            ps.setLong(1, from);
                            ps.setLong(2, to);
                            ps.setLong(3, System.currentTimeMillis());
                            ps.setInt(4, options.scaleSpendings());
                            ps.setLong(5, BALANCE);
                            ps.setLong(6, MONTH_MILLIS);
                            ps.executeUpdate();
                        }
                    }
                });
            }
            database.runInTransaction(connection -> {
                try (PreparedStatement ps = connection.prepareStatement("ANALYZE")) {
                    ps.execute();
                }
            });
            double seconds = (System.nanoTime() - start) / 1e9;
            long bytes = database.read(connection -> {
                try (PreparedStatement ps = connection.prepareStatement("SELECT pg_database_size(current_database())");
                        ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            });
            report.scaleSizes.put(accounts, new Report.ScaleSize((long) accounts * options.scaleSpendings(), seconds,
                    bytes));
            System.out.printf("  seeded %,d accounts, %,d spendings in %.0f s: %,d MB on disk%n", accounts,
                    (long) accounts * options.scaleSpendings(), seconds, bytes >> 20);
        }
    }

    /** A file of 10,000 caller keys of accounts picked at random, as wrk.lua takes it. */
    private String keys(int accounts) throws Exception {
        Random random = new Random(accounts);
        List<String> keys = new ArrayList<>();
        IntStream.range(0, SAMPLE).forEach(n -> keys.add(String.format("pl_%032d", 1 + random.nextInt(accounts))));
        Path keysFile = folder.resolve("keys-" + accounts + ".txt");
        Files.write(keysFile, keys);
        return "@" + keysFile.toAbsolutePath();
    }

    private void measure(List<Size> sizes, List<Server> servers) throws Exception {
        Path log = folder.resolve("wrk.log");
        int connections = options.connections().stream().max(Integer::compare).orElse(64);
        if (options.warmupSeconds() > 0) {
            for (int i = 0; i < sizes.size(); i++) {
                for (String[] request : REQUESTS) {
                    Wrk.run(log, "bench/wrk.lua", servers.get(i).port(), request[1], request[2], sizes.get(i).keys(),
                            connections, options.warmupSeconds(), false);
                }
            }
        }
        for (int round = 1; round <= ROUNDS; round++) {
            for (int i = 0; i < sizes.size(); i++) {
                List<Wrk.Run> runs = new ArrayList<>();
                for (String[] request : REQUESTS) {
                    Wrk.Run run = Wrk.run(log, "bench/wrk.lua", servers.get(i).port(), request[1], request[2],
                            sizes.get(i).keys(), connections, options.seconds(), false);
                    runs.add(run);
                    System.out.printf(Locale.ROOT, "  round %d, %s, %s: %.0f req/s, p50 %.2f ms, p99 %.2f ms, %s%n",
                            round, sizes.get(i).text(options.scaleSpendings()), request[0], run.requestsPerSecond(),
                            run.p50Micros() / 1000.0, run.p99Micros() / 1000.0, run.statusText());
                }
                sizes.get(i).runs().add(runs);
            }
        }
        for (int i = 0; i < sizes.size(); i++) {
            Size size = sizes.get(i);
            for (int r = 0; r < REQUESTS.size(); r++) {
                int request = r;
                List<Wrk.Run> runs = size.runs().stream().map(round -> round.get(request)).toList();
                report.add(new Result("scale", REQUESTS.get(r)[0] + " (" + size.text(options.scaleSpendings()) + ")",
                        connections, median(runs, Wrk.Run::requestsPerSecond), median(runs, run -> run.p50Micros() / 1000.0),
                        median(runs, run -> run.p99Micros() / 1000.0), servers.get(i).procStatusKb("VmRSS"),
                        Double.NaN, Double.NaN, "median of " + ROUNDS + " rounds: " + runs.stream()
                                .map(run -> String.format(Locale.ROOT, "%.0f/s %s", run.requestsPerSecond(), run.statusText()))
                                .collect(Collectors.joining("; ")), ""));
            }
        }
    }

    private static double median(List<Wrk.Run> runs, ToDoubleFunction<Wrk.Run> figure) {
        double[] sorted = runs.stream().mapToDouble(figure).sorted().toArray();
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    private void verify(Size size) throws Exception {
        Subject subject = new Subject("", options.jar(), size.url(), java.util.Optional.empty());
        long start = System.nanoTime();
        Subject.Verdict verdict = subject.verify();
        double verifySeconds = (System.nanoTime() - start) / 1e9;
        report.scaleVerifySeconds.put(size.accounts(), verifySeconds);
        report.check(verdict.passed(), String.format(
                "scale, %s: `verify` passes in %.1f s (%s)", size.text(options.scaleSpendings()), verifySeconds,
                verdict.output().lines().reduce((a, b) -> b).orElse("")));
    }
}
