package dev.pulseledger.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Opens a store's connection pool with its connections' settings, waits for it to answer, and migrates it. */
final class ConnectionPools {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);
    private static final long SOCKET_TIMEOUT_MARGIN_SECONDS = 2;
    /** Each SQLite connection's page cache, in KiB (a negative cache_size is KiB, a positive one pages). */
    private static final int SQLITE_CACHE_KIB = 1024;
    /*
     * One sick node (paused, partitioned, stalled) must not hold another node's work on an account for
     * long (CONTRACT §12). A row lock is waited for at most LOCK_TIMEOUT, then the wait ends as 503
     * account_busy; a transaction left idle by its client (a paused process, a lost network) is ended
     * by the server after IDLE_IN_TRANSACTION_TIMEOUT, which frees its locks. Our transactions never
     * sit idle on purpose: between their statements there is only our own code, for microseconds. The
     * keepalives end the session of a client whose network vanished without a word in about 11 s.
     */
    static final long LOCK_TIMEOUT_MILLIS = 1_000;
    static final long IDLE_IN_TRANSACTION_TIMEOUT_MILLIS = 2_000;
    private static final String KEEPALIVES =
            " -c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=3";

    private ConnectionPools() {}

    /** A pool for {@code settings}; it opens connections lazily, so nothing is reached yet. */
    static HikariDataSource open(Database.Settings settings, Dialect dialect, String poolName) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(poolName);
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
        return new HikariDataSource(config);
    }

    /**
     * Brings the schema up to date with Flyway, from the dialect's migrations. A migration may take longer than
     * a request may (an index built over a large table): on PostgreSQL its sessions run without the statement
     * timeout, and are closed after it, so that the pool's next sessions start with the request timeouts. (A
     * transaction pooler's sessions carry no timeout; {@link Transactions} sets it per transaction.)
     */
    static void migrate(HikariDataSource pool, Dialect dialect, boolean transactionPooler) {
        boolean untimed = dialect == Dialect.POSTGRESQL && !transactionPooler;
        Flyway.configure()
                .dataSource(pool)
                .locations(dialect.migrations())
                .failOnMissingLocations(true)
                // Features take version numbers from separate ranges, so a database may meet a
                // lower version after a higher one; migrations of different ranges are independent.
                .outOfOrder(true)
                .initSql(untimed ? "SET statement_timeout = 0" : null)
                .load()
                .migrate();
        if (untimed) {
            pool.getHikariPoolMXBean().softEvictConnections();
        }
    }

    private static void configureSqlite(HikariConfig config, Database.Settings settings) {
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
        // A page cache of 1 MB per connection instead of SQLite's 2 MB: the cache lives outside the Java heap, a
        // node keeps up to --db-pool-size connections, and a page it misses comes from the OS's file cache
        // (PERFORMANCE.md, session 21).
        config.addDataSourceProperty("cache_size", Integer.toString(-SQLITE_CACHE_KIB));
        // IMMEDIATE: a write transaction takes the write lock at BEGIN, so it never fails to upgrade.
        config.addDataSourceProperty("transaction_mode", "IMMEDIATE");
    }

    private static void configurePostgres(HikariConfig config, Database.Settings settings) {
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        if (settings.transactionPooler()) {
            // A transaction-pooling pooler (PgBouncer) hands one server session to many clients: no
            // server-side prepared statements (they live in a session) and no start-up options (it drops
            // them); the statement, lock and idle timeouts are set on each transaction instead (Transactions).
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

    /** Waits until the pool lends a connection, for at most {@code timeout} (zero: one try). */
    @SuppressWarnings("try") // borrowing a connection is the test; it goes straight back
    static void awaitReachable(HikariDataSource pool, Duration timeout, String target) {
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
    static String withoutCredentials(String jdbcUrl) {
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
}
