package dev.pulseledger.store;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * One store as the rest of the code sees it: work run in transactions and reads, the dialect, health and
 * metrics. Each job is done by a class of its own: the pool and migrations ({@link ConnectionPools}), the
 * transaction boundary and the write counter ({@link Transactions}), whether writes work ({@link WriteHealth}),
 * the pool's gauges ({@link PoolMetrics}).
 */
public final class Database implements AutoCloseable {
    private final Dialect dialect;
    private final HikariDataSource pool;
    private final WriteHealth health = new WriteHealth();
    private final Transactions transactions;

    /** Where {@link #readMayLag} sends its work: this database until read replicas are set up (db/ReadTargets). */
    private volatile LaggingReads laggingReads = this::read;

    /** Runs reads that may be a moment old (CONTRACT §18): a read replica's, or this database's own. */
    public interface LaggingReads {
        <T> T read(SqlWork<T> work);
    }

    private Database(Dialect dialect, HikariDataSource pool, Settings settings) {
        this.dialect = dialect;
        this.pool = pool;
        this.transactions =
                new Transactions(dialect, pool, health, settings.transactionPooler(), settings.statementTimeout());
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
        return open(settings, true, true);
    }

    /** Opens the pool and waits for the database, leaving the schema as it is: for tools that only read. */
    public static Database openWithoutMigrating(Settings settings) {
        return open(settings, false, true);
    }

    /**
     * Opens a read replica's pool without waiting for it or touching its schema: a replica that is down
     * at start only means its reads go to the primary until it answers.
     */
    public static Database openReplica(Settings settings) {
        return open(settings, false, false);
    }

    private static Database open(Settings settings, boolean migrate, boolean await) {
        Dialect dialect = Dialect.fromUrl(settings.jdbcUrl());
        HikariDataSource pool = ConnectionPools.open(settings, dialect, await ? "pulseledger" : "pulseledger-replica");
        if (!await) {
            return new Database(dialect, pool, settings);
        }
        try {
            // A local file does not come back by waiting: SQLite fails at once, a server gets the timeout.
            ConnectionPools.awaitReachable(
                    pool,
                    dialect == Dialect.SQLITE ? Duration.ZERO : settings.startupTimeout(),
                    ConnectionPools.withoutCredentials(settings.jdbcUrl()));
            if (migrate) {
                ConnectionPools.migrate(pool, dialect, settings.transactionPooler());
            }
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        return new Database(dialect, pool, settings);
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
            case POSTGRESQL ->
                "PostgreSQL at " + ConnectionPools.withoutCredentials(url).replaceFirst("^jdbc:postgresql://", "");
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
        transactions.serializeOn(connection, lockKey);
    }

    /** Runs work in one transaction: committed if it returns, rolled back if it throws. */
    public <T> T inTransaction(SqlWork<T> work) {
        return transactions.inTransaction(work);
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
     * only a transaction can carry the statement timeout there. On SQLite the work cannot write.
     */
    public <T> T read(SqlWork<T> work) {
        return transactions.read(work);
    }

    /** Like {@link #read(SqlWork)}, for work that returns nothing. */
    public void runRead(SqlAction work) {
        read(connection -> {
            work.run(connection);
            return Boolean.TRUE;
        });
    }

    /**
     * Runs read-only work in one transaction: one snapshot of the data, and on PostgreSQL result sets that
     * stream rather than load whole (for reads of every row, such as {@code verify}'s).
     */
    public void runReadInTransaction(SqlAction work) {
        transactions.readInTransaction(connection -> {
            work.run(connection);
            return Boolean.TRUE;
        });
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

    /**
     * Write transactions ended (committed or not) in this process, on any database, counted after the commit
     * and before the work's caller hears of it: take it before a read, compare it later to know whether the
     * read still holds.
     */
    public static long writesEnded() {
        return Transactions.writesEnded();
    }

    /** How many units of work (transactions or single reads) this pool has run or tried to run. */
    public long transactions() {
        return transactions.count();
    }

    /** 1 when the database answers a ping at scrape time, else 0: what the "database down" alert reads. */
    public void bindReachability(MeterRegistry registry) {
        Gauge.builder("pulseledger.database.up", this, database -> database.isReachable() ? 1 : 0)
                .description("1 when the database answers a ping (as /health/ready checks), else 0")
                .register(registry);
    }

    /** Gauges of this connection pool: connections in use, idle, the maximum, and threads waiting for one. */
    public void bindPoolMetrics(MeterRegistry registry, String poolName) {
        PoolMetrics.bind(registry, pool, poolName);
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
     * a failure this answers from a small probe write, at most one per second.
     */
    public boolean canWrite() {
        return health.canWrite(transactions);
    }

    @Override
    public void close() {
        pool.close();
    }
}
