import dev.pulseledger.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * The scale case (PostgreSQL): one database grown step by step to each of {@code --scale-accounts}
 * accounts with {@code --scale-spendings} spendings each (default 10,000 → 100,000 → 1,000,000 accounts,
 * 10 spendings each, so 10,000,000 at the end), seeded set-based with generate_series. At each size a
 * fresh server takes spends, balance reads and the first page of spending history from 10,000 of the
 * accounts picked at random, and {@code verify} checks the whole ledger, timed.
 */
final class ScaleRun {
    private static final long BALANCE = 1_000_000_000L;
    private static final int SAMPLE = 10_000;
    private static final long CHUNK = 100_000;
    private static final long MONTH_MILLIS = Duration.ofDays(30).toMillis();

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

    void run() throws Exception {
        Files.createDirectories(folder);
        System.out.println("== scale (postgresql)");
        Postgres postgres = new Postgres(options);
        String url = Postgres.jdbcUrl(options, postgres.appDatabase());
        try {
            long grown = 0;
            for (int accounts : options.scaleAccounts()) {
                grow(url, grown, accounts);
                grown = accounts;
                measure(url, accounts);
            }
        } finally {
            postgres.drop();
        }
    }

    private void grow(String url, long from, long to) {
        long start = System.nanoTime();
        try (Database database = Seed.open(url)) {
            // In transactions of at most CHUNK accounts, so that no statement nears the statement timeout.
            for (long lo = from; lo < to; lo += CHUNK) {
                long chunkFrom = lo;
                long chunkTo = Math.min(to, lo + CHUNK);
                database.inTransaction(connection -> {
                for (String sql : GROW) {
                    try (PreparedStatement ps = connection.prepareStatement(STEP + sql)) {
                        ps.setLong(1, chunkFrom);
                        ps.setLong(2, chunkTo);
                        ps.setLong(3, System.currentTimeMillis());
                        ps.setInt(4, options.scaleSpendings());
                        ps.setLong(5, BALANCE);
                        ps.setLong(6, MONTH_MILLIS);
                        ps.executeUpdate();
                    }
                }
                return null;
                });
            }
            database.inTransaction(connection -> {
                try (PreparedStatement ps = connection.prepareStatement("ANALYZE")) {
                    return ps.execute();
                }
            });
        }
        System.out.printf("  grew to %d accounts, %d spendings in %.0f s%n", to, to * options.scaleSpendings(),
                (System.nanoTime() - start) / 1e9);
    }

    private void measure(String url, int accounts) throws Exception {
        Random random = new Random(accounts);
        List<String> keys = new ArrayList<>();
        IntStream.range(0, SAMPLE).forEach(n -> keys.add(String.format("pl_%032d", 1 + random.nextInt(accounts))));
        Path keysFile = folder.resolve("keys-" + accounts + ".txt");
        Files.write(keysFile, keys);
        String keysArgument = "@" + keysFile.toAbsolutePath();
        String size = String.format("%,d accounts, %,d spendings", accounts, (long) accounts * options.scaleSpendings());
        try (Server server = Server.start(options, options.jar(), url, folder, "scale-" + accounts)) {
            int seconds = options.seconds();
            Path log = folder.resolve("wrk.log");
            if (options.warmupSeconds() > 0) {
                Wrk.run(log, "bench/wrk.lua", server.port(), "POST", "/api/tokens/spend/1", keysArgument, 32, options.warmupSeconds(), false);
                Wrk.run(log, "bench/wrk.lua", server.port(), "GET", "/api/tokens/spendings?limit=20", keysArgument, 32,
                        options.warmupSeconds(), false);
            }
            int connections = options.connections().stream().max(Integer::compare).orElse(64);
            for (String[] request : List.of(
                    new String[] {"spend", "POST", "/api/tokens/spend/1"},
                    new String[] {"GET balance", "GET", "/api/tokens/balance"},
                    new String[] {"GET spendings, first page of 20", "GET", "/api/tokens/spendings?limit=20"})) {
                Wrk.Run run = Wrk.run(log, "bench/wrk.lua", server.port(), request[1], request[2], keysArgument, connections, seconds,
                        false);
                report.add(new Result("scale", request[0] + " (" + size + ")", connections, run.requestsPerSecond(),
                        run.p50Micros() / 1000.0, run.p99Micros() / 1000.0, server.procStatusKb("VmRSS"), Double.NaN,
                        Double.NaN, run.statusText(), ""));
            }
        }
        Subject subject = new Subject("", options.jar(), url, java.util.Optional.empty());
        long start = System.nanoTime();
        Subject.Verdict verdict = subject.verify();
        double verifySeconds = (System.nanoTime() - start) / 1e9;
        report.scaleVerifySeconds.put(accounts, verifySeconds);
        report.check(verdict.passed(), String.format(
                "scale, %s: `verify` passes in %.1f s (%s)", size, verifySeconds,
                verdict.output().lines().reduce((a, b) -> b).orElse("")));
    }
}
