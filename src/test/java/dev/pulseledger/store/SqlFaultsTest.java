package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * CONTRACT §12: what the database reports is classified once, by SQLSTATE or SQLite result code, into
 * the fault a caller is answered with; whatever is not a fault stays a bug (500).
 */
class SqlFaultsTest {

    @ParameterizedTest(name = "SQLSTATE {0} -> {1}")
    @CsvSource({
        "08001, database_unavailable", // cannot connect
        "08006, database_unavailable", // connection lost
        "08P01, database_unavailable", // protocol violation: what PgBouncer answers when it gives up
        "57014, database_unavailable", // statement timeout
        "57P01, database_unavailable", // admin shutdown
        "57P03, database_unavailable", // cannot connect now (starting, recovering)
        "25006, database_unavailable", // read-only transaction: a standby, or a demoted primary
        "25P03, database_unavailable", // idle-in-transaction timeout: the node was paused mid-transaction
        "53300, database_unavailable", // too many connections
        "53200, database_unavailable", // out of memory
        "40001, database_unavailable", // serialization failure
        "40P01, database_unavailable", // deadlock
        "26000, database_unavailable", // prepared statement missing: a pooler without --db-pooler
        "53100, storage_full",
        "55P03, account_busy", // lock not available (lock_timeout, NOWAIT)
    })
    void postgresFaultsAreAnsweredByTheirSqlState(String state, String code) {
        assertThat(SqlFaults.diagnose(new SQLException("reported", state))
                        .map(d -> d.fault().code()))
                .contains(code);
    }

    @ParameterizedTest(name = "SQLSTATE {0} stops every write of the node: {1}")
    @CsvSource({
        "08006, true", // the database is gone: readiness reports it
        "25006, true", // read-only server
        "53100, true", // disk full
        "57014, false", // one statement timed out; others may well commit
        "25P03, false", // one transaction sat idle past the server's timeout (a paused node)
        "40001, false", // one transaction conflicted
        "55P03, false", // one account's lock is held elsewhere
    })
    void onlyFaultsThatStopEveryWriteMakeTheNodeUnready(String state, boolean nodeWide) {
        assertThat(SqlFaults.diagnose(new SQLException("reported", state)).map(SqlFaults.Diagnosis::nodeWide))
                .contains(nodeWide);
    }

    @ParameterizedTest(name = "SQLSTATE {0} is a bug")
    @CsvSource({"23505", "42P01", "42703", "22003", "XX000"})
    void otherSqlStatesAreBugs(String state) {
        assertThat(SqlFaults.diagnose(new SQLException("reported", state))).isEmpty();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "SQLITE_FULL, storage_full",
        "SQLITE_BUSY, database_unavailable",
        "SQLITE_BUSY_SNAPSHOT, database_unavailable",
        "SQLITE_LOCKED, database_unavailable",
        "SQLITE_READONLY, database_unavailable",
        "SQLITE_READONLY_DBMOVED, database_unavailable",
        "SQLITE_IOERR_WRITE, database_unavailable",
        "SQLITE_IOERR_FSYNC, database_unavailable",
        "SQLITE_CANTOPEN, database_unavailable",
        "SQLITE_NOMEM, database_unavailable",
    })
    void sqliteFaultsAreAnsweredByTheirResultCode(SQLiteErrorCode result, String code) {
        assertThat(SqlFaults.diagnose(new SQLiteException("reported", result))
                        .map(d -> d.fault().code()))
                .contains(code);
    }

    @ParameterizedTest(name = "{0} is a bug")
    @CsvSource({"SQLITE_CONSTRAINT_UNIQUE", "SQLITE_ERROR", "SQLITE_MISMATCH"})
    void otherSqliteResultsAreBugs(SQLiteErrorCode result) {
        assertThat(SqlFaults.diagnose(new SQLiteException("reported", result))).isEmpty();
    }

    @ParameterizedTest(name = "pool timeout behind {0}")
    @CsvSource({"SQLITE_FULL, storage_full", "SQLITE_ERROR, database_unavailable"})
    void aPoolTimeoutIsAnsweredByTheFailureBehindIt(SQLiteErrorCode behind, String code) {
        SQLException timeout = new SQLTransientConnectionException(
                "Connection is not available", null, new SQLiteException("reported", behind));
        Optional<SqlFaults.Diagnosis> diagnosis = SqlFaults.diagnose(timeout);
        assertThat(diagnosis.map(d -> d.fault().code())).contains(code);
        assertThat(diagnosis.map(SqlFaults.Diagnosis::advice)).get().asString().isNotBlank();
    }
}
