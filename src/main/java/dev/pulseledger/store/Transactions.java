package dev.pulseledger.store;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.jdbi.v3.core.JdbiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where work meets a connection: transactions begun, committed or rolled back, reads run, and
 * the count of write transactions ended that the SQLite balance cache relies on. On SQLite a read runs with
 * {@code PRAGMA query_only}, so a write cannot slip past that count through a read.
 */
final class Transactions {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);
    private static final NamedSql SERIALIZE_ON = NamedSql.parse("SELECT pg_advisory_xact_lock(:lock_key)");
    private static final NamedSql SET_STATEMENT_TIMEOUT =
            NamedSql.parse("SELECT set_config('statement_timeout', :millis, true),"
                    + " set_config('lock_timeout', '" + ConnectionPools.LOCK_TIMEOUT_MILLIS + "', true),"
                    + " set_config('idle_in_transaction_session_timeout', '"
                    + ConnectionPools.IDLE_IN_TRANSACTION_TIMEOUT_MILLIS + "', true)");

    /**
     * Write transactions ended (committed or not) in this process, on any database: moved after the
     * commit, before the work's caller hears of it. A read that began after this count was taken and
     * finds it unchanged shows the data as it is now, wherever this process is the only writer.
     */
    private static final AtomicLong WRITES_ENDED = new AtomicLong();

    private final Dialect dialect;
    private final HikariDataSource pool;
    private final WriteHealth health;
    /** The statement timeout to set on each transaction; empty when the session carries it. */
    private final Optional<String> transactionStatementTimeoutMillis;

    private final LongAdder count = new LongAdder();
    private final SqliteStatements statements = new SqliteStatements();

    Transactions(
            Dialect dialect,
            HikariDataSource pool,
            WriteHealth health,
            boolean transactionPooler,
            Duration statementTimeout) {
        this.dialect = dialect;
        this.pool = pool;
        this.health = health;
        this.transactionStatementTimeoutMillis = dialect == Dialect.POSTGRESQL && transactionPooler
                ? Optional.of(Long.toString(statementTimeout.toMillis()))
                : Optional.empty();
    }

    /** Runs work in one transaction: committed if it returns, rolled back if it throws. */
    <T> T inTransaction(SqlWork<T> work) {
        count.increment();
        return transaction(work, true);
    }

    /** Runs read-only work outside an explicit transaction; behind a transaction pooler inside one. */
    <T> T read(SqlWork<T> work) {
        count.increment();
        if (transactionStatementTimeoutMillis.isPresent()) {
            return transaction(work, false);
        }
        try (Connection connection = pool.getConnection()) {
            return dialect == Dialect.SQLITE ? queryOnly(connection, work) : work.run(connection);
        } catch (SQLException e) {
            throw fault(e, false);
        } catch (JdbiException e) {
            throw fault(e, false);
        }
    }

    /** Runs read-only work in one transaction: one snapshot, and on PostgreSQL result sets that stream. */
    <T> T readInTransaction(SqlWork<T> work) {
        count.increment();
        return transaction(work, false);
    }

    /**
     * Makes transactions that pass the same {@code lockKey} run one after the other until the
     * calling transaction ends: a transaction-scoped advisory lock on PostgreSQL; nothing on SQLite,
     * whose write transactions already take the single write lock at BEGIN.
     */
    void serializeOn(Connection connection, long lockKey) throws SQLException {
        if (dialect == Dialect.POSTGRESQL) {
            try (PreparedStatement ps = connection.prepareStatement(SERIALIZE_ON.sql())) {
                SERIALIZE_ON.setLong(ps, "lock_key", lockKey);
                ps.execute();
            }
        }
    }

    /** See {@link #WRITES_ENDED}: take it before a read, compare it later to know whether the read still holds. */
    static long writesEnded() {
        return WRITES_ENDED.get();
    }

    /** How many units of work (transactions or single reads) have run or tried to run. */
    long count() {
        return count.sum();
    }

    /** Work on a SQLite connection that may not write; a connection that cannot be made writable again leaves the pool. */
    private <T> T queryOnly(Connection connection, SqlWork<T> work) throws SQLException {
        setQueryOnly(connection, true);
        try {
            return work.run(connection);
        } finally {
            try {
                setQueryOnly(connection, false);
            } catch (SQLException e) {
                LOG.debug("Could not make a SQLite connection writable again; dropping it", e);
                pool.evictConnection(connection);
            }
        }
    }

    /** With the two statements kept prepared: compiled afresh, they cost every SQLite read two compilations. */
    private void setQueryOnly(Connection connection, boolean on) throws SQLException {
        try {
            statements
                    .get(connection, on ? "PRAGMA query_only = 1" : "PRAGMA query_only = 0")
                    .execute();
        } catch (SQLException e) {
            statements.forget(connection);
            throw e;
        }
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
                    health.wrote();
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
        } catch (JdbiException e) {
            throw fault(e, writes);
        }
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
            try (PreparedStatement ps = connection.prepareStatement(SET_STATEMENT_TIMEOUT.sql())) {
                SET_STATEMENT_TIMEOUT.setString(ps, "millis", transactionStatementTimeoutMillis.get());
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

    /** A statement run through {@link Sql} failed: judged by the driver's exception inside, when there is one. */
    private RuntimeException fault(JdbiException e, boolean writes) {
        return e.getCause() instanceof SQLException cause ? fault(cause, writes) : e;
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
        health.failed(diagnosis.get(), writes);
        return new DatabaseUnavailableException(
                diagnosis.get().fault(),
                diagnosis.get().kind() + ": " + diagnosis.get().cause(),
                e);
    }
}
