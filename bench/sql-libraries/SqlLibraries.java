import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.reflect.ConstructorMapper;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record1;
import org.jooq.Records;
import org.jooq.SQLDialect;
import org.jooq.SelectForUpdateStep;
import org.jooq.Table;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * Measures one spend transaction and one ledger listing written three ways (hand-bound JDBC as the service
 * writes its statements today, jOOQ's DSL, Jdbi with named binding) against the same database, in
 * interleaved rounds, and prints each library's medians and its ratios to JDBC round by round.
 *
 * <p>Run with {@code bench/sql-libraries.sh [--rounds N] [--seconds N] [--stores sqlite,postgresql]}.
 */
public final class SqlLibraries {
    private static final int ACCOUNTS = 10_000;
    private static final int LISTED_ACCOUNTS = 200;
    private static final int LINES_PER_LISTED_ACCOUNT = 60;
    private static final AtomicLong SPENDING_IDS = new AtomicLong();

    /** One ledger line as a listing returns it. */
    public record Line(long seq, String kind, long amount, long balanceAfter, String spendingId, long createdAt) {}

    /** The two operations, written in one library's way. */
    interface Way {
        String name();

        boolean spend(String account, String spendingId, long amount, long now) throws Exception;

        List<Line> lines(String account) throws Exception;
    }

    /** The service's way today: prepared statements bound by position, rows read by hand. */
    record JdbcWay(DataSource pool, boolean postgres) implements Way {
        public String name() {
            return "JDBC (today)";
        }

        public boolean spend(String account, String spendingId, long amount, long now) throws SQLException {
            try (Connection c = pool.getConnection()) {
                c.setAutoCommit(false);
                try {
                    long balance;
                    try (PreparedStatement s = c.prepareStatement(
                            "SELECT balance FROM accounts WHERE id = ?" + (postgres ? " FOR UPDATE" : ""))) {
                        s.setString(1, account);
                        try (ResultSet rs = s.executeQuery()) {
                            rs.next();
                            balance = rs.getLong(1);
                        }
                    }
                    if (balance < amount) {
                        c.rollback();
                        return false;
                    }
                    try (PreparedStatement s = c.prepareStatement("UPDATE accounts SET balance = ? WHERE id = ?")) {
                        s.setLong(1, balance - amount);
                        s.setString(2, account);
                        s.executeUpdate();
                    }
                    try (PreparedStatement s = c.prepareStatement(
                            "INSERT INTO spendings (id, account_id, amount, status, created_at) VALUES (?, ?, ?, 'active', ?)")) {
                        s.setString(1, spendingId);
                        s.setString(2, account);
                        s.setLong(3, amount);
                        s.setLong(4, now);
                        s.executeUpdate();
                    }
                    try (PreparedStatement s = c.prepareStatement(
                            "INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, created_at)"
                                    + " VALUES (?, 'spend', ?, ?, ?, ?)")) {
                        s.setString(1, account);
                        s.setLong(2, -amount);
                        s.setLong(3, balance - amount);
                        s.setString(4, spendingId);
                        s.setLong(5, now);
                        s.executeUpdate();
                    }
                    c.commit();
                    return true;
                } catch (SQLException e) {
                    c.rollback();
                    throw e;
                }
            }
        }

        public List<Line> lines(String account) throws SQLException {
            try (Connection c = pool.getConnection();
                    PreparedStatement s = c.prepareStatement(
                            "SELECT seq, kind, amount, balance_after, spending_id, created_at FROM ledger_entries"
                                    + " WHERE account_id = ? ORDER BY seq DESC LIMIT 50")) {
                s.setString(1, account);
                List<Line> lines = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        lines.add(new Line(
                                rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getString(5), rs.getLong(6)));
                    }
                }
                return lines;
            }
        }
    }

    /** jOOQ's DSL without generated classes: typed fields declared once, SQL rendered per dialect. */
    static final class JooqWay implements Way {
        private static final Table<?> ACCOUNTS_TABLE = DSL.table(DSL.name("accounts"));
        private static final Field<String> ACCOUNT_ID = DSL.field(DSL.name("id"), String.class);
        private static final Field<Long> BALANCE = DSL.field(DSL.name("balance"), Long.class);
        private static final Table<?> SPENDINGS = DSL.table(DSL.name("spendings"));
        private static final Field<String> SPENDING_ID = DSL.field(DSL.name("id"), String.class);
        private static final Table<?> LEDGER = DSL.table(DSL.name("ledger_entries"));
        private static final Field<Long> SEQ = DSL.field(DSL.name("seq"), Long.class);
        private static final Field<String> OWNER = DSL.field(DSL.name("account_id"), String.class);
        private static final Field<String> KIND = DSL.field(DSL.name("kind"), String.class);
        private static final Field<Long> AMOUNT = DSL.field(DSL.name("amount"), Long.class);
        private static final Field<String> STATUS = DSL.field(DSL.name("status"), String.class);
        private static final Field<Long> BALANCE_AFTER = DSL.field(DSL.name("balance_after"), Long.class);
        private static final Field<String> LINE_SPENDING = DSL.field(DSL.name("spending_id"), String.class);
        private static final Field<Long> CREATED_AT = DSL.field(DSL.name("created_at"), Long.class);

        private final DSLContext db;
        private final boolean postgres;

        JooqWay(DataSource pool, boolean postgres) {
            this.postgres = postgres;
            this.db = DSL.using(
                    pool,
                    postgres ? SQLDialect.POSTGRES : SQLDialect.SQLITE,
                    new Settings().withExecuteLogging(false).withRenderSchema(false));
        }

        public String name() {
            return "jOOQ " + org.jooq.Constants.VERSION;
        }

        public boolean spend(String account, String spendingId, long amount, long now) {
            return db.transactionResult(configuration -> {
                DSLContext tx = DSL.using(configuration);
                SelectForUpdateStep<Record1<Long>> read =
                        tx.select(BALANCE).from(ACCOUNTS_TABLE).where(ACCOUNT_ID.eq(account));
                long balance = (postgres ? read.forUpdate() : read).fetchSingle(BALANCE);
                if (balance < amount) {
                    return false;
                }
                tx.update(ACCOUNTS_TABLE).set(BALANCE, balance - amount).where(ACCOUNT_ID.eq(account)).execute();
                tx.insertInto(SPENDINGS, SPENDING_ID, OWNER, AMOUNT, STATUS, CREATED_AT)
                        .values(spendingId, account, amount, "active", now)
                        .execute();
                tx.insertInto(LEDGER, OWNER, KIND, AMOUNT, BALANCE_AFTER, LINE_SPENDING, CREATED_AT)
                        .values(account, "spend", -amount, balance - amount, spendingId, now)
                        .execute();
                return true;
            });
        }

        public List<Line> lines(String account) {
            return db.select(SEQ, KIND, AMOUNT, BALANCE_AFTER, LINE_SPENDING, CREATED_AT)
                    .from(LEDGER)
                    .where(OWNER.eq(account))
                    .orderBy(SEQ.desc())
                    .limit(50)
                    .fetch(Records.mapping(Line::new));
        }
    }

    /** Jdbi's fluent API: the SQL written out, parameters bound by name, rows mapped onto the record. */
    static final class JdbiWay implements Way {
        private final Jdbi jdbi;
        private final String lock;

        JdbiWay(DataSource pool, boolean postgres) {
            this.jdbi = Jdbi.create(pool);
            this.jdbi.registerRowMapper(ConstructorMapper.factory(Line.class));
            this.lock = postgres ? " FOR UPDATE" : "";
        }

        public String name() {
            return "Jdbi 3.55";
        }

        public boolean spend(String account, String spendingId, long amount, long now) {
            return jdbi.inTransaction(h -> {
                long balance = h.createQuery("SELECT balance FROM accounts WHERE id = :account" + lock)
                        .bind("account", account)
                        .mapTo(Long.class)
                        .one();
                if (balance < amount) {
                    return false;
                }
                h.createUpdate("UPDATE accounts SET balance = :balance WHERE id = :account")
                        .bind("balance", balance - amount)
                        .bind("account", account)
                        .execute();
                h.createUpdate("INSERT INTO spendings (id, account_id, amount, status, created_at)"
                                + " VALUES (:id, :account, :amount, 'active', :now)")
                        .bind("id", spendingId)
                        .bind("account", account)
                        .bind("amount", amount)
                        .bind("now", now)
                        .execute();
                h.createUpdate("INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, created_at)"
                                + " VALUES (:account, 'spend', :amount, :after, :id, :now)")
                        .bind("account", account)
                        .bind("amount", -amount)
                        .bind("after", balance - amount)
                        .bind("id", spendingId)
                        .bind("now", now)
                        .execute();
                return true;
            });
        }

        public List<Line> lines(String account) {
            return jdbi.withHandle(h -> h.createQuery(
                            "SELECT seq, kind, amount, balance_after, spending_id, created_at FROM ledger_entries"
                                    + " WHERE account_id = :account ORDER BY seq DESC LIMIT 50")
                    .bind("account", account)
                    .mapTo(Line.class)
                    .list());
        }
    }

    /** What one library did in one measured window. */
    record Sample(double opsPerSecond, double cpuMicrosPerOp, double kilobytesPerOp) {}

    /** One operation of the bench. */
    enum Operation {
        SPEND,
        LIST;

        void runOnce(Way way) throws Exception {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            if (this == SPEND) {
                String account = "acct-" + random.nextInt(ACCOUNTS);
                way.spend(account, "sp-" + SPENDING_IDS.incrementAndGet(), 1 + random.nextInt(100), System.currentTimeMillis());
            } else if (way.lines("acct-" + random.nextInt(LISTED_ACCOUNTS)).size() != 50) {
                throw new IllegalStateException(way.name() + " listed the wrong number of lines");
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        int rounds = Integer.parseInt(options.getOrDefault("rounds", "5"));
        int seconds = Integer.parseInt(options.getOrDefault("seconds", "5"));
        int warmup = Integer.parseInt(options.getOrDefault("warmup-seconds", "2"));
        List<String> stores = List.of(options.getOrDefault("stores", "sqlite,postgresql").split(","));
        String postgresUrl = options.getOrDefault("postgres-url", "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres");

        System.out.printf(
                Locale.ROOT,
                "SQL libraries: %d interleaved rounds, %d s per library and operation after %d s unmeasured; %d cores; Java %s%n%n",
                rounds, seconds, warmup, Runtime.getRuntime().availableProcessors(), Runtime.version());
        System.out.println("| store | operation | library | threads | ops/s median (min–max) | × JDBC ops/s | client CPU µs/op | × JDBC CPU | KB allocated/op |");
        System.out.println("|---|---|---|---:|---:|---:|---:|---:|---:|");
        for (String store : stores) {
            boolean postgres = store.equals("postgresql");
            String database = "sqllibs_" + Long.toString(System.currentTimeMillis(), 36);
            Path sqliteFile = postgres ? null : Files.createTempFile("sqllibs", ".db");
            String url = postgres ? postgresUrl.replace("/postgres?", "/" + database + "?") : "jdbc:sqlite:" + sqliteFile;
            if (postgres) {
                admin(postgresUrl, "CREATE DATABASE " + database);
            }
            try (HikariDataSource pool = pool(url, postgres)) {
                createSchema(pool, postgres);
                List<Way> ways = List.of(new JdbcWay(pool, postgres), new JooqWay(pool, postgres), new JdbiWay(pool, postgres));
                int threads = postgres ? 16 : 4;
                for (Operation operation : Operation.values()) {
                    measure(store, operation, ways, threads, rounds, seconds, warmup);
                }
            } finally {
                if (postgres) {
                    admin(postgresUrl, "DROP DATABASE " + database);
                } else {
                    Files.deleteIfExists(sqliteFile);
                    Files.deleteIfExists(Path.of(sqliteFile + "-wal"));
                    Files.deleteIfExists(Path.of(sqliteFile + "-shm"));
                }
            }
        }
    }

    private static void measure(
            String store, Operation operation, List<Way> ways, int threads, int rounds, int seconds, int warmup)
            throws InterruptedException {
        Map<Way, List<Sample>> samples = new LinkedHashMap<>();
        ways.forEach(way -> samples.put(way, new ArrayList<>()));
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < ways.size(); i++) {
                Way way = ways.get((round + i) % ways.size());
                run(way, operation, threads, warmup);
                samples.get(way).add(run(way, operation, threads, seconds));
            }
        }
        List<Sample> jdbc = samples.get(ways.getFirst());
        for (Way way : ways) {
            List<Sample> own = samples.get(way);
            double[] opsRatio = new double[rounds];
            double[] cpuRatio = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                opsRatio[r] = own.get(r).opsPerSecond() / jdbc.get(r).opsPerSecond();
                cpuRatio[r] = own.get(r).cpuMicrosPerOp() / jdbc.get(r).cpuMicrosPerOp();
            }
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %s | %s | %d | %s | %s | %s | %s | %s |%n",
                    store,
                    operation == Operation.SPEND ? "spend (read, update, 2 inserts, commit)" : "list 50 ledger lines",
                    way.name(),
                    threads,
                    spread(own.stream().mapToDouble(Sample::opsPerSecond).toArray(), "%.0f"),
                    spread(opsRatio, "%.2f"),
                    spread(own.stream().mapToDouble(Sample::cpuMicrosPerOp).toArray(), "%.0f"),
                    spread(cpuRatio, "%.2f"),
                    spread(own.stream().mapToDouble(Sample::kilobytesPerOp).toArray(), "%.1f"));
        }
    }

    /** Runs {@code operation} on {@code threads} threads for {@code seconds}; CPU and allocation are the process's. */
    private static Sample run(Way way, Operation operation, int threads, int seconds) throws InterruptedException {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        var memory = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        AtomicLong operations = new AtomicLong();
        AtomicLong allocated = new AtomicLong();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> workers = new ArrayList<>();
        long cpuBefore = os.getProcessCpuTime();
        long started = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().start(() -> {
                long bytesBefore = memory.getCurrentThreadAllocatedBytes();
                long done = 0;
                try {
                    while (System.nanoTime() < deadline) {
                        operation.runOnce(way);
                        done++;
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(way.name() + " failed", e);
                }
                operations.addAndGet(done);
                allocated.addAndGet(memory.getCurrentThreadAllocatedBytes() - bytesBefore);
            }));
        }
        for (Thread worker : workers) {
            worker.join();
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        long cpu = os.getProcessCpuTime() - cpuBefore;
        long ops = Math.max(1, operations.get());
        return new Sample(ops / elapsed, cpu / 1000.0 / ops, allocated.get() / 1024.0 / ops);
    }

    private static String spread(double[] values, String format) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double median = sorted.length % 2 == 1
                ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
        return String.format(Locale.ROOT, format + " (" + format + "–" + format + ")", median, sorted[0], sorted[sorted.length - 1]);
    }

    private static HikariDataSource pool(String url, boolean postgres) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(postgres ? 16 : 1);
        if (!postgres) {
            config.addDataSourceProperty("journal_mode", "WAL");
            config.addDataSourceProperty("synchronous", "NORMAL");
            config.addDataSourceProperty("busy_timeout", "5000");
        }
        return new HikariDataSource(config);
    }

    private static void createSchema(DataSource pool, boolean postgres) throws SQLException {
        String serial = postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY";
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE accounts (id TEXT PRIMARY KEY, balance BIGINT NOT NULL CHECK (balance >= 0))");
            s.execute("CREATE TABLE spendings (seq " + serial + ", id TEXT NOT NULL UNIQUE,"
                    + " account_id TEXT NOT NULL REFERENCES accounts (id), amount BIGINT NOT NULL CHECK (amount > 0),"
                    + " status TEXT NOT NULL, created_at BIGINT NOT NULL)");
            s.execute("CREATE INDEX spendings_account_seq ON spendings (account_id, seq)");
            s.execute("CREATE TABLE ledger_entries (seq " + serial + ", account_id TEXT NOT NULL REFERENCES accounts (id),"
                    + " kind TEXT NOT NULL, amount BIGINT NOT NULL, balance_after BIGINT NOT NULL CHECK (balance_after >= 0),"
                    + " spending_id TEXT, created_at BIGINT NOT NULL)");
            s.execute("CREATE INDEX ledger_entries_account_seq ON ledger_entries (account_id, seq)");
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO accounts (id, balance) VALUES (?, ?)")) {
                for (int a = 0; a < ACCOUNTS; a++) {
                    insert.setString(1, "acct-" + a);
                    insert.setLong(2, 1_000_000_000_000L);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, created_at)"
                            + " VALUES (?, 'credit', 1, 1, NULL, 0)")) {
                for (int a = 0; a < LISTED_ACCOUNTS; a++) {
                    for (int l = 0; l < LINES_PER_LISTED_ACCOUNT; l++) {
                        insert.setString(1, "acct-" + a);
                        insert.addBatch();
                    }
                }
                insert.executeBatch();
            }
            c.commit();
            s.execute("ANALYZE");
            c.commit();
        }
    }

    private static void admin(String url, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("options are --name value pairs: " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }
}
