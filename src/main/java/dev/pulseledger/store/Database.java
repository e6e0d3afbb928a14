package dev.pulseledger.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToDoubleFunction;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The connection pool, the schema migrations and the transaction boundary for one store. */
public final class Database implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);
    private static final long SOCKET_TIMEOUT_MARGIN_SECONDS = 2;
    /*
     * One sick node (paused, partitioned, stalled) must not hold another node's work on an account for
     * long (CONTRACT §12). A row lock is waited for at most LOCK_TIMEOUT, then the wait ends as 503
     * account_busy; a transaction left idle by its client (a paused process, a lost network) is ended
     * by the server after IDLE_IN_TRANSACTION_TIMEOUT, which frees its locks. Our transactions never
     * sit idle on purpose: between their statements there is only our own code, for microseconds. The
     * keepalives end the session of a client whose network vanished without a word in about 11 s.
     */
    private static final long LOCK_TIMEOUT_MILLIS = 1_000;
    private static final long IDLE_IN_TRANSACTION_TIMEOUT_MILLIS = 2_000;
    private static final String KEEPALIVES =
            " -c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=3";
    private static final String SET_STATEMENT_TIMEOUT = "SELECT set_config('statement_timeout', ?, true),"
            + " set_config('lock_timeout', '" + LOCK_TIMEOUT_MILLIS + "', true),"
            + " set_config('idle_in_transaction_session_timeout', '" + IDLE_IN_TRANSACTION_TIMEOUT_MILLIS + "', true)";
    private static final String PROBE_WRITE = "UPDATE write_probe SET probed_at = ? WHERE id = 1";
    private static final Duration WRITE_PROBE_INTERVAL = Duration.ofSeconds(1);

    /**
     * Write transactions ended (committed or not) in this process, on any database: moved after the
     * commit, before the work's caller hears of it. A read that began after this count was taken and
     * finds it unchanged shows the data as it is now, wherever this process is the only writer.
     */
    private static final AtomicLong WRITES_ENDED = new AtomicLong();

    private final Dialect dialect;
    private final HikariDataSource pool;
    /** The statement timeout to set on each transaction; empty when the session carries it. */
    private final Optional<String> transactionStatementTimeoutMillis;

    private final LongAdder transactions = new LongAdder();

    private final FaultLog faultLog = new FaultLog();
    /** When writes started failing for the whole node; 0 while they work. */
    private final AtomicLong writeFaultSinceNanos = new AtomicLong();

    private final AtomicLong lastProbeNanos = new AtomicLong(System.nanoTime() - WRITE_PROBE_INTERVAL.toNanos());

    /** Where {@link #readMayLag} sends its work: this database until read replicas are set up (db/ReadTargets). */
    private volatile LaggingReads laggingReads = this::read;

    /** Runs reads that may be a moment old (CONTRACT §18): a read replica's, or this database's own. */
    public interface LaggingReads {
        <T> T read(SqlWork<T> work);
    }

    private Database(Dialect dialect, HikariDataSource pool, Settings settings) {
        this.dialect = dialect;
        this.pool = pool;
        this.transactionStatementTimeoutMillis = dialect == Dialect.POSTGRESQL && settings.transactionPooler()
                ? Optional.of(Long.toString(settings.statementTimeout().toMillis()))
                : Optional.empty();
    }

    /** Settings of the pool and its connections. */
    public record Settings(
            String jdbcUrl,
            int poolSize,
            Duration connectionTimeout,
            Duration statementTimeout,
            Duration startupTimeout,
            boolean transactionPooler) {

        /** Settings for a database reached directly or through a session-pooling pooler. */
        public Settings(
                String jdbcUrl,
                int poolSize,
                Duration connectionTimeout,
                Duration statementTimeout,
                Duration startupTimeout) {
            this(jdbcUrl, poolSize, connectionTimeout, statementTimeout, startupTimeout, false);
        }
    }

    /** Opens the pool, waits for the database to answer, and migrates the schema. */
    public static Database open(Settings settings) {
        return open(settings, true);
    }

    /** Opens the pool and waits for the database, leaving the schema as it is: for tools that only read. */
    public static Database openWithoutMigrating(Settings settings) {
        return open(settings, false);
    }

    /**
     * Opens a read replica's pool without waiting for it or touching its schema: a replica that is down
     * at start only means its reads go to the primary until it answers.
     */
    public static Database openReplica(Settings settings) {
        return open(settings, false, false);
    }

    private static Database open(Settings settings, boolean migrate) {
        return open(settings, migrate, true);
    }

    private static Database open(Settings settings, boolean migrate, boolean await) {
        Dialect dialect = Dialect.fromUrl(settings.jdbcUrl());
        HikariConfig config = new HikariConfig();
        config.setPoolName(await ? "pulseledger" : "pulseledger-replica");
        config.setJdbcUrl(settings.jdbcUrl());
        config.setMaximumPoolSize(settings.poolSize());
        config.setMinimumIdle(Math.min(2, settings.poolSize()));
        config.setConnectionTimeout(settings.connectionTimeout().toMillis());
        config.setValidationTimeout(Math.max(250, settings.connectionTimeout().toMillis() / 2));
        config.setInitializationFailTimeout(-1);
        switch (dialect) {
            case SQLITE -> configureSqlite(config, settings);
            case POSTGRESQL -> configurePostgres(config, settings);
        }
        HikariDataSource pool = new HikariDataSource(config);
        Database database = new Database(dialect, pool, settings);
        if (!await) {
            return database;
        }
        try {
            // A local file does not come back by waiting: SQLite fails at once, a server gets the timeout.
            database.awaitReachable(
                    dialect == Dialect.SQLITE ? Duration.ZERO : settings.startupTimeout(),
                    withoutCredentials(settings.jdbcUrl()));
            if (migrate) {
                Flyway.configure()
                        .dataSource(pool)
                        .locations(dialect.migrations())
                        .failOnMissingLocations(true)
                        // Features take version numbers from separate ranges, so a database may meet a
                        // lower version after a higher one; migrations of different ranges are independent.
                        .outOfOrder(true)
                        .load()
                        .migrate();
            }
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        return database;
    }

    private static void configureSqlite(HikariConfig config, Settings settings) {
        SqliteFile.prepare(settings.jdbcUrl());
        config.addDataSourceProperty("journal_mode", "WAL");
        // FULL: a commit is on disk before the caller hears of it (CONTRACT §3, 201 only when durable).
        config.addDataSourceProperty("synchronous", "FULL");
        config.addDataSourceProperty("foreign_keys", "true");
        // Checkpoint in the commit that crosses 1,000 pages (4 MB) of WAL, SQLite's default. At 10,000 pages
        // each checkpoint held up the waiting spends for tens of ms (p99 41-49 ms on 10,000 accounts against
        // 12-15 ms at 1,000, at the same throughput); on a thread of its own it contended with the commits'
        // syncs (p99 58 ms). See PERFORMANCE.md, session 8.
        config.addDataSourceProperty("wal_autocheckpoint", "1000");
        // After a checkpoint the WAL file is cut back to 64 MB, so a burst (a long read holding the log) does
        // not leave it large.
        config.addDataSourceProperty("journal_size_limit", Long.toString(64L * 1024 * 1024));
        config.addDataSourceProperty(
                "busy_timeout", Long.toString(settings.statementTimeout().toMillis()));
        // IMMEDIATE: a write transaction takes the write lock at BEGIN, so it never fails to upgrade.
        config.addDataSourceProperty("transaction_mode", "IMMEDIATE");
    }

    private static void configurePostgres(HikariConfig config, Settings settings) {
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        if (settings.transactionPooler()) {
            // A transaction-pooling pooler (PgBouncer) hands one server session to many clients: no
            // server-side prepared statements (they live in a session) and no start-up options (it drops
            // them); the statement, lock and idle timeouts are set on each transaction instead (begin).
            config.addDataSourceProperty("prepareThreshold", "0");
        } else {
            config.addDataSourceProperty(
                    "options",
                    "-c statement_timeout=" + settings.statementTimeout().toMillis()
                            + " -c lock_timeout=" + LOCK_TIMEOUT_MILLIS
                            + " -c idle_in_transaction_session_timeout=" + IDLE_IN_TRANSACTION_TIMEOUT_MILLIS
                            + KEEPALIVES);
        }
        String connectSeconds =
                Long.toString(Math.max(1, settings.connectionTimeout().toSeconds()));
        config.addDataSourceProperty("connectTimeout", connectSeconds);
        config.addDataSourceProperty("loginTimeout", connectSeconds);
        // A network that drops packets silently would otherwise leave a read waiting for ever; the
        // server's statement_timeout ends slow statements first, this only ends dead connections.
        config.addDataSourceProperty(
                "socketTimeout",
                Long.toString(settings.statementTimeout().toSeconds() + SOCKET_TIMEOUT_MARGIN_SECONDS));
        config.addDataSourceProperty("tcpKeepAlive", "true");
    }

    @SuppressWarnings("try") // borrowing a connection is the test; it goes straight back
    private void awaitReachable(Duration timeout, String target) {
        long deadlineNanos = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (Connection connection = pool.getConnection()) {
                return;
            } catch (SQLException e) {
                if (timeout.isZero()) {
                    throw new DatabaseUnavailableException("Cannot open the database " + target + ": " + reason(e), e);
                }
                if (System.nanoTime() > deadlineNanos) {
                    throw new DatabaseUnavailableException(
                            "The database " + target + " did not answer within " + timeout.toSeconds()
                                    + " s (--db-startup-timeout-s): " + reason(e),
                            e);
                }
                LOG.warn("Waiting for the database {}: {}", target, reason(e));
                sleep(Duration.ofSeconds(1));
            }
        }
    }

    /**
     * Why no connection came: the pool only says it timed out, while the driver's last failure (refused,
     * unknown host, no such database, bad password) is what an operator can act on.
     */
    private static String reason(SQLException e) {
        Throwable cause = e.getCause();
        String causeMessage = cause == null ? null : cause.getMessage();
        return causeMessage != null ? causeMessage : String.valueOf(e.getMessage());
    }

    /** The URL without its query string or user info, either of which may hold a password. */
    private static String withoutCredentials(String jdbcUrl) {
        int query = jdbcUrl.indexOf('?');
        String url = query >= 0 ? jdbcUrl.substring(0, query) : jdbcUrl;
        return url.replaceFirst("//[^/@]*@", "//");
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the database", e);
        }
    }

    /**
     * What the start-up log says of the database: the SQLite file, or PostgreSQL's host and database,
     * never the user, password or other URL parameters.
     */
    public String describe() {
        String url = pool.getJdbcUrl();
        return switch (dialect) {
            case SQLITE ->
                "SQLite at " + SqliteFile.of(url).map(Path::toString).orElse(url.substring("jdbc:sqlite:".length()));
            case POSTGRESQL -> "PostgreSQL at " + withoutCredentials(url).replaceFirst("^jdbc:postgresql://", "");
        };
    }

    public Dialect dialect() {
        return dialect;
    }

    /**
     * Makes transactions that pass the same {@code lockKey} run one after the other until the
     * calling transaction ends: a transaction-scoped advisory lock on PostgreSQL; nothing on SQLite,
     * whose write transactions already take the single write lock at BEGIN.
     */
    public void serializeOn(Connection connection, long lockKey) throws SQLException {
        if (dialect == Dialect.POSTGRESQL) {
            try (PreparedStatement ps = connection.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                ps.setLong(1, lockKey);
                ps.execute();
            }
        }
    }

    /** Runs work in one transaction: committed if it returns, rolled back if it throws. */
    public <T> T inTransaction(SqlWork<T> work) {
        transactions.increment();
        return transaction(work, true);
    }

    /** Like {@link #inTransaction(SqlWork)}, for work that returns nothing. */
    public void runInTransaction(SqlAction work) {
        inTransaction(connection -> {
            work.run(connection);
            return Boolean.TRUE;
        });
    }

    /**
     * Runs read-only work outside an explicit transaction; behind a transaction pooler inside one, as
     * only a transaction can carry the statement timeout there.
     */
    public <T> T read(SqlWork<T> work) {
        transactions.increment();
        if (transactionStatementTimeoutMillis.isPresent()) {
            return transaction(work, false);
        }
        try (Connection connection = pool.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw fault(e, false);
        }
    }

    /**
     * Runs a read that may be up to {@code --max-replica-lag-ms} old (history, usage, the pulse, the status
     * page, console lists): on a read replica when one is set up and fresh enough, else like {@link #read}.
     */
    public <T> T readMayLag(SqlWork<T> work) {
        return laggingReads.read(work);
    }

    /** Sends {@link #readMayLag} work to {@code reads} from now on (the read replicas' router). */
    public void sendLaggingReadsTo(LaggingReads reads) {
        laggingReads = reads;
    }

    /** Like {@link #read(SqlWork)}, for work that returns nothing. */
    public void runRead(SqlAction work) {
        read(connection -> {
            work.run(connection);
            return Boolean.TRUE;
        });
    }

    private <T> T transaction(SqlWork<T> work, boolean writes) {
        try {
            return transactionOnce(work, writes);
        } finally {
            if (writes) {
                WRITES_ENDED.incrementAndGet();
            }
        }
    }

    private <T> T transactionOnce(SqlWork<T> work, boolean writes) {
        try (Connection connection = pool.getConnection()) {
            begin(connection);
            try {
                T result = work.run(connection);
                connection.commit();
                if (writes) {
                    wrote();
                }
                return result;
            } catch (SQLException | RuntimeException e) {
                // No setAutoCommit(true) afterwards: the pool restores it when the connection returns,
                // and on a broken connection it would throw "Connection is closed" over the real error.
                rollbackOrEvict(connection);
                throw e;
            }
        } catch (SQLException e) {
            throw fault(e, writes);
        }
    }

    /** See {@link #WRITES_ENDED}: take it before a read, compare it later to know whether the read still holds. */
    public static long writesEnded() {
        return WRITES_ENDED.get();
    }

    /** How many units of work (transactions or single reads) this pool has run or tried to run. */
    public long transactions() {
        return transactions.sum();
    }

    /** 1 when the database answers a ping at scrape time, else 0: what the "database down" alert reads. */
    public void bindReachability(MeterRegistry registry) {
        Gauge.builder("pulseledger.database.up", this, database -> database.isReachable() ? 1 : 0)
                .description("1 when the database answers a ping (as /health/ready checks), else 0")
                .register(registry);
    }

    /** Gauges of this connection pool: connections in use, idle, the maximum, and threads waiting for one. */
    public void bindPoolMetrics(MeterRegistry registry, String poolName) {
        poolGauge(
                registry,
                poolName,
                "active.connections",
                "Database connections lent out",
                bean -> bean.getHikariPoolMXBean().getActiveConnections());
        poolGauge(
                registry,
                poolName,
                "idle.connections",
                "Open database connections waiting to be lent",
                bean -> bean.getHikariPoolMXBean().getIdleConnections());
        poolGauge(
                registry,
                poolName,
                "max.connections",
                "The most database connections of this pool (from --db-pool-size)",
                HikariDataSource::getMaximumPoolSize);
        poolGauge(
                registry,
                poolName,
                "pending.threads",
                "Threads waiting for a database connection",
                bean -> bean.getHikariPoolMXBean().getThreadsAwaitingConnection());
    }

    private void poolGauge(
            MeterRegistry registry,
            String poolName,
            String name,
            String description,
            ToDoubleFunction<HikariDataSource> value) {
        Gauge.builder("pulseledger.db.pool." + name, pool, value)
                .description(description + ", per pool (main: spends and the rest; lookups: keys)")
                .tag("pool", poolName)
                .register(registry);
    }

    /** True when the database answers a trivial query now. */
    public boolean isReachable() {
        try (Connection connection = pool.getConnection()) {
            return connection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * True unless writes fail for the whole node (a full disk, a read-only server, an outage). After such
     * a failure this answers from a small probe write, at most one per second, so a node that no traffic
     * reaches (its load balancer took it out) still finds out by itself that it can write again.
     */
    public boolean canWrite() {
        if (writeFaultSinceNanos.get() == 0) {
            return true;
        }
        long now = System.nanoTime();
        long last = lastProbeNanos.get();
        if (now - last >= WRITE_PROBE_INTERVAL.toNanos() && lastProbeNanos.compareAndSet(last, now)) {
            try {
                inTransaction(connection -> {
                    try (PreparedStatement ps = connection.prepareStatement(PROBE_WRITE)) {
                        ps.setLong(1, System.currentTimeMillis());
                        return ps.executeUpdate();
                    }
                });
            } catch (DatabaseUnavailableException | StoreException e) {
                return false;
            }
        }
        return writeFaultSinceNanos.get() == 0;
    }

    private void wrote() {
        writeFaultSinceNanos.set(0);
        faultLog.wrote();
    }

    /**
     * Starts a transaction. A connection whose BEGIN failed (SQLite busy past busy_timeout) leaves the
     * pool: sqlite-jdbc then believes a transaction is open while none is, and would run the next
     * borrower's statements one by one in auto-commit.
     */
    private void begin(Connection connection) throws SQLException {
        try {
            connection.setAutoCommit(false);
        } catch (SQLException e) {
            pool.evictConnection(connection);
            throw e;
        }
        if (transactionStatementTimeoutMillis.isPresent()) {
            try (PreparedStatement ps = connection.prepareStatement(SET_STATEMENT_TIMEOUT)) {
                ps.setString(1, transactionStatementTimeoutMillis.get());
                ps.execute();
            }
        }
    }

    /** Rolls back after a failure; a connection that cannot even roll back leaves the pool. */
    private void rollbackOrEvict(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            LOG.debug("Rollback failed after an error; dropping the connection", e);
            pool.evictConnection(connection);
        }
    }

    /**
     * A database fault (see {@link SqlFaults}) becomes a {@link DatabaseUnavailableException}, logged once
     * per episode; every other SQL error is a bug and stays a {@link StoreException}, answered 500.
     */
    private RuntimeException fault(SQLException e, boolean writes) {
        Optional<SqlFaults.Diagnosis> diagnosis = SqlFaults.diagnose(e);
        if (diagnosis.isEmpty()) {
            return new StoreException(e);
        }
        Fault fault = diagnosis.get().fault();
        if (writes && diagnosis.get().nodeWide()) {
            writeFaultSinceNanos.compareAndSet(0, System.nanoTime());
        }
        faultLog.failed(diagnosis.get());
        return new DatabaseUnavailableException(
                fault, diagnosis.get().kind() + ": " + diagnosis.get().cause(), e);
    }

    @Override
    public void close() {
        pool.close();
    }
}
