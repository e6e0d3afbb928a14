import dev.pulseledger.ledger.read.SpendingQueries;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.NamedSql;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The scale case (PostgreSQL): one database per size of {@code --scale-accounts} (default 10,000, 100,000
 * and 1,000,000 accounts) with {@code --scale-spendings} spendings each (default 10, so 10,000,000 at
 * 1M), seeded set-based with generate_series, each account's spendings spread over the table as time would
 * spread them (not side by side). A server runs on each database at once, and in each of
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
    /** The seeded tables' indexes that back no constraint (primary keys and UNIQUE stay), with their definitions. */
    private static final String SEEDED_INDEXES = "SELECT quote_ident(indexname), indexdef FROM pg_indexes"
            + " WHERE schemaname = current_schema() AND tablename IN ('accounts', 'grants', 'api_keys', 'ledger_entries',"
            + " 'spendings') AND indexname NOT IN (SELECT conname FROM pg_constraint) ORDER BY 1";
    private static final int HISTORY_PAGE = 20;
    private static final List<String[]> REQUESTS = List.of(
            new String[] {"spend", "POST", "/api/tokens/spend/1"},
            new String[] {"GET balance", "GET", "/api/tokens/balance"},
            new String[] {"GET spendings, first page of " + HISTORY_PAGE, "GET", "/api/tokens/spendings?limit=" + HISTORY_PAGE});

    /** The numbers of one step, the same six parameters for every statement of {@link #GROW}. */
    private static final String STEP = "WITH p AS (SELECT ?::bigint AS lo, ?::bigint AS hi, ?::bigint AS now,"
            + " ?::integer AS per, ?::bigint AS balance, ?::bigint AS month) ";

    /**
     * The rows of accounts {@code lo < i <= hi}: as bench/Seed writes them, plus {@code per} spendings of 1
     * token each, each naming the one grant it drew from (V160: no spending_grants row), and their spend lines.
     */
    private static final List<String> GROW = List.of(
            """
            INSERT INTO accounts (id, name, plan_id, balance, status, created_at, period_anchor, period_start,
                period_end, period_granted, due_at, last_line_at)
            SELECT 'acct_' || lpad(i::text, 26, '0'), 'scale ' || i, 'free', p.balance - p.per, 'active',
                p.now, p.now, p.now, p.now + p.month, 0, p.now + p.month, p.now - p.month + p.per * 60000
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
            INSERT INTO spendings (id, account_id, amount, status, created_at, grant_id)
            SELECT 'sp_' || lpad((i * 1000 + n)::text, 26, '0'), 'acct_' || lpad(i::text, 26, '0'), 1, 'active',
                p.now - p.month + n * 60000, 'gr_' || lpad(i::text, 26, '0')
            FROM p, generate_series(p.lo + 1, p.hi) i, generate_series(1, p.per) n ORDER BY n, i""",
            """
            INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, grant_id, reason, created_at)
            SELECT 'acct_' || lpad(i::text, 26, '0'), 'spend', -1, p.balance - n,
                'sp_' || lpad((i * 1000 + n)::text, 26, '0'), NULL, NULL, p.now - p.month + n * 60000
            FROM p, generate_series(p.lo + 1, p.hi) i, generate_series(1, p.per) n ORDER BY n, i""");

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
                checkHistoryPlan(url, accounts);
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

    /**
     * Fills the database as bulk loads are done: the indexes that back no constraint are dropped first and
     * built again at the end (a sorted build instead of ten million inserts into each), and foreign keys
     * are not checked row by row (every row's account is made from the same number as the account itself).
     * The database ends with exactly the schema's indexes and constraints.
     */
    private void seed(String url, int accounts) throws Exception {
        long start = System.nanoTime();
        try (Database database = Seed.open(url)) {
            List<String> indexes = database.inTransaction(connection -> {
                waitForLocks(connection);
                List<String> definitions = new ArrayList<>();
                try (PreparedStatement ps = connection.prepareStatement(SEEDED_INDEXES);
                        ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        definitions.add(rs.getString(2));
                        try (PreparedStatement drop = connection.prepareStatement("DROP INDEX " + rs.getString(1))) {
                            drop.execute();
                        }
                    }
                }
                return definitions;
            });
            // In transactions of at most CHUNK accounts, so that no statement nears the statement timeout.
            for (long lo = 0; lo < accounts; lo += CHUNK) {
                long from = lo;
                long to = Math.min(accounts, lo + CHUNK);
                // One instant for every statement of the chunk: the accounts' last line time must be their
                // newest line's (`verify` checks it), and each statement reading the clock anew broke that.
                long now = System.currentTimeMillis();
                database.runInTransaction(connection -> {
                    execute(connection, "SET LOCAL session_replication_role = replica");
                    for (String sql : GROW) {
                        try (PreparedStatement ps = connection.prepareStatement(STEP + sql)) {
                            ps.setLong(1, from);
                            ps.setLong(2, to);
                            ps.setLong(3, now);
                            ps.setInt(4, options.scaleSpendings());
                            ps.setLong(5, BALANCE);
                            ps.setLong(6, MONTH_MILLIS);
                            ps.executeUpdate();
                        }
                    }
                });
            }
            database.runInTransaction(connection -> {
                execute(connection, "SET LOCAL statement_timeout = 0");
                waitForLocks(connection);
                execute(connection, "SET LOCAL maintenance_work_mem = '512MB'");
                for (String definition : indexes) {
                    execute(connection, definition);
                }
            });
        }
        // A database that grew to this size over months has been vacuumed as it grew. Left to autovacuum, the
        // freshly loaded tables are vacuumed (every page read, and its visibility bits written) during the
        // measured rounds; so the seed ends as such a database would be: vacuumed, analyzed, checkpointed.
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            statement.execute("SET statement_timeout = 0");
            statement.execute("VACUUM (ANALYZE)");
            statement.execute("CHECKPOINT");
            double seconds = (System.nanoTime() - start) / 1e9;
            long bytes;
            try (ResultSet rs = statement.executeQuery("SELECT pg_database_size(current_database())")) {
                rs.next();
                bytes = rs.getLong(1);
            }
            report.scaleSizes.put(accounts, new Report.ScaleSize((long) accounts * options.scaleSpendings(), seconds,
                    bytes));
            System.out.printf("  seeded %,d accounts, %,d spendings in %.0f s: %,d MB on disk%n", accounts,
                    (long) accounts * options.scaleSpendings(), seconds, bytes >> 20);
        }
    }

    /**
     * Lets the transaction wait for its table locks: autovacuum may be working on a table being seeded, and
     * PostgreSQL cancels it for a waiting lock only after {@code deadlock_timeout}, while the node's own
     * lock timeout, which the seeding connection has, is shorter.
     */
    private static void waitForLocks(Connection connection) throws java.sql.SQLException {
        execute(connection, "SET LOCAL lock_timeout = 0");
    }

    /**
     * The plans of a first and a later page of one account's spending history, written to the output
     * folder: keyset paging must find the account's rows through the index on (account_id, seq), never by
     * a scan of the table, so a page costs the same at any size. (With few rows per account the planner may
     * fetch them all and sort them; with many it walks the index backwards and stops after a page.)
     */
    private void checkHistoryPlan(String url, int accounts) throws Exception {
        String account = String.format("acct_%026d", accounts / 2 + 1);
        StringBuilder plans = new StringBuilder();
        try (Connection connection = DriverManager.getConnection(url)) {
            long later;
            try (PreparedStatement ps = connection.prepareStatement(
                    "SELECT seq FROM spendings WHERE account_id = ? ORDER BY seq OFFSET ? LIMIT 1")) {
                ps.setString(1, account);
                ps.setInt(2, options.scaleSpendings() / 2);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    later = rs.getLong(1);
                }
            }
            NamedSql page = NamedSql.parse("EXPLAIN (ANALYZE, BUFFERS) " + SpendingQueries.SELECT_PAGE);
            for (long before : List.of(Long.MAX_VALUE, later)) {
                try (PreparedStatement ps = connection.prepareStatement(page.sql())) {
                    page.setString(ps, "account_id", account);
                    page.setLong(ps, "before_seq", before);
                    page.setLong(ps, "limit", HISTORY_PAGE + 1);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            plans.append(rs.getString(1)).append('\n');
                        }
                    }
                }
                plans.append('\n');
            }
        }
        Files.writeString(folder.resolve("history-plans-" + accounts + ".txt"), plans);
        String text = plans.toString();
        report.check(text.contains("spendings_account_seq") && !text.contains("Seq Scan"),
                String.format("scale, %,d accounts: a first and a later page of spending history read only the"
                        + " account's rows, through spendings_account_seq, no scan of the table (plans in"
                        + " scale/history-plans-%d.txt)", accounts, accounts));
    }

    private static void execute(Connection connection, String sql) throws java.sql.SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.execute();
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
                WalMeter meter = new WalMeter(sizes.get(i).url());
                WalMeter.Snapshot before = meter.snapshot();
                for (String[] request : REQUESTS) {
                    Wrk.Run run = Wrk.run(log, "bench/wrk.lua", servers.get(i).port(), request[1], request[2],
                            sizes.get(i).keys(), connections, options.seconds(), false);
                    WalMeter.Snapshot after = meter.snapshot();
                    String cost = WalMeter.perRequest(before, after, run.requests());
                    before = after; // one request's end is the next one's start
                    runs.add(run);
                    System.out.printf(Locale.ROOT, "  round %d, %s, %s: %.0f req/s, p50 %.2f ms, p99 %.2f ms, %s; %s%n",
                            round, sizes.get(i).text(options.scaleSpendings()), request[0], run.requestsPerSecond(),
                            run.p50Micros() / 1000.0, run.p99Micros() / 1000.0, run.statusText(), cost);
                }
                sizes.get(i).runs().add(runs);
            }
        }
        // Spend is the first request: its p50 at the largest size against the smallest's in the same round.
        for (int round = 0; round < ROUNDS; round++) {
            report.scaleSpendP50Ratios.add(sizes.getLast().runs().get(round).getFirst().p50Micros()
                    / (double) sizes.getFirst().runs().get(round).getFirst().p50Micros());
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
                                .collect(Collectors.joining("; ")), "", OptionalLong.empty()));
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
