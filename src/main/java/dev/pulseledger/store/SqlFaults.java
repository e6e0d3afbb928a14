package dev.pulseledger.store;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;
import org.sqlite.SQLiteException;

/**
 * Tells a database fault (something that passes: an outage, a full disk, a lock held elsewhere) from a
 * bug, by PostgreSQL's SQLSTATE or SQLite's result code, and says what an operator can do about it.
 */
final class SqlFaults {
    private static final int SQLITE_BUSY = 5;
    private static final int SQLITE_LOCKED = 6;
    private static final int SQLITE_NOMEM = 7;
    private static final int SQLITE_READONLY = 8;
    private static final int SQLITE_IOERR = 10;
    private static final int SQLITE_FULL = 13;
    private static final int SQLITE_CANTOPEN = 14;
    private static final int MAX_CAUSE_LENGTH = 300;

    /**
     * A classified fault: what to answer, what happened (for the log), what to do, and whether it stops
     * every write of this node (an outage, a full disk) or only the transaction that met it (a timeout,
     * a lock, a conflict).
     */
    record Diagnosis(Fault fault, String kind, String cause, String advice, boolean nodeWide) {}

    private SqlFaults() {}

    /** The fault behind the exception, or empty when it is not one (then it is a bug: 500). */
    static Optional<Diagnosis> diagnose(SQLException e) {
        if (e instanceof SQLTransientConnectionException && e.getCause() instanceof SQLException cause) {
            // The pool timed out; the driver's last failure to connect says why.
            Optional<Diagnosis> behind = diagnose(cause);
            if (behind.isPresent()) {
                return behind;
            }
        }
        if (e instanceof SQLiteException sqlite) {
            return sqlite(sqlite);
        }
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        Optional<Diagnosis> byState = postgres(state, e);
        if (byState.isPresent() || !(e instanceof SQLTransientConnectionException)) {
            return byState;
        }
        return Optional.of(new Diagnosis(
                Fault.DATABASE_UNAVAILABLE,
                "no connection",
                cause(e),
                "No pooled connection came free within --db-connection-timeout-ms: the database is slow or"
                        + " unreachable, or --db-pool-size is too small for the load.",
                true));
    }

    private static Optional<Diagnosis> postgres(String state, SQLException e) {
        String kind = "SQLSTATE " + state;
        if (state.equals("55P03")) {
            return foundInOneTransaction(
                    Fault.ACCOUNT_BUSY,
                    kind,
                    e,
                    "A row lock was not granted in time: another session holds it; look for long transactions in"
                            + " pg_stat_activity.");
        }
        if (state.equals("53100")) {
            return found(Fault.STORAGE_FULL, kind, e, "Free disk space on the PostgreSQL server's data volume.");
        }
        if (state.equals("53300")) {
            return found(
                    Fault.DATABASE_UNAVAILABLE,
                    kind,
                    e,
                    "PostgreSQL refuses more connections: lower nodes x --db-pool-size, or raise max_connections"
                            + " (or the pooler's max_client_conn).");
        }
        if (state.equals("57014")) {
            return foundInOneTransaction(
                    Fault.DATABASE_UNAVAILABLE,
                    kind,
                    e,
                    "A statement ran longer than --db-statement-timeout-ms: look for long transactions holding"
                            + " locks in pg_stat_activity.");
        }
        if (state.equals("25P03")) {
            // The server rolled the transaction back and closed the session: nothing of it was written.
            return foundInOneTransaction(
                    Fault.DATABASE_UNAVAILABLE,
                    kind,
                    e,
                    "The server ended a session left idle inside a transaction (idle_in_transaction_session_timeout):"
                            + " this node stalled mid-transaction (a paused process, a long GC pause, an overloaded"
                            + " host); the transaction was rolled back and a retry succeeds.");
        }
        if (state.equals("25006")) {
            return found(
                    Fault.DATABASE_UNAVAILABLE,
                    kind,
                    e,
                    "The server is read-only (a standby, or the old primary after a failover): list every host in"
                            + " the URL with targetServerType=primary.");
        }
        if (state.equals("26000") || state.equals("42P05")) {
            return found(
                    Fault.DATABASE_UNAVAILABLE,
                    kind,
                    e,
                    "Server-side prepared statements met a transaction-pooling connection pooler: remove"
                            + " prepareThreshold from the database URL.");
        }
        if (state.startsWith("08")) {
            return found(
                    Fault.DATABASE_UNAVAILABLE,
                    kind,
                    e,
                    "Check that PostgreSQL (and any pooler in front of it) is running and reachable from this node.");
        }
        if (state.startsWith("57")) {
            return found(
                    Fault.DATABASE_UNAVAILABLE,
                    kind,
                    e,
                    "PostgreSQL is shutting down, restarting or failing over: wait for it, or check the server's"
                            + " log.");
        }
        if (state.startsWith("53")) {
            return found(
                    Fault.DATABASE_UNAVAILABLE,
                    kind,
                    e,
                    "PostgreSQL lacks a resource (memory or a configured limit): check the server's log.");
        }
        if (state.startsWith("40")) {
            return foundInOneTransaction(
                    Fault.DATABASE_UNAVAILABLE,
                    kind,
                    e,
                    "Concurrent transactions conflicted (serialization failure or deadlock); a retry succeeds."
                            + " Frequent ones point to a bug.");
        }
        return Optional.empty();
    }

    private static Optional<Diagnosis> sqlite(SQLiteException e) {
        int primaryCode = e.getErrorCode() & 0xff;
        String kind = e.getResultCode().name();
        return switch (primaryCode) {
            case SQLITE_FULL ->
                found(
                        Fault.STORAGE_FULL,
                        kind,
                        e,
                        "Free disk space on the volume that holds the SQLite file and its -wal file.");
            case SQLITE_BUSY, SQLITE_LOCKED ->
                found(
                        Fault.DATABASE_UNAVAILABLE,
                        kind,
                        e,
                        "Another process holds the SQLite file's write lock longer than --db-statement-timeout-ms: find"
                                + " it (a shell, a backup script) and end it.");
            case SQLITE_READONLY ->
                found(
                        Fault.DATABASE_UNAVAILABLE,
                        kind,
                        e,
                        "The SQLite file or its folder became read-only for this process: check permissions and the"
                                + " mount.");
            case SQLITE_IOERR ->
                found(
                        Fault.DATABASE_UNAVAILABLE,
                        kind,
                        e,
                        "The disk reported an I/O error: check the volume (dmesg, SMART).");
            case SQLITE_CANTOPEN ->
                found(
                        Fault.DATABASE_UNAVAILABLE,
                        kind,
                        e,
                        "The SQLite file cannot be opened: check that its folder exists and is writable by"
                                + " this process.");
            case SQLITE_NOMEM ->
                found(Fault.DATABASE_UNAVAILABLE, kind, e, "SQLite ran out of memory: give the process more memory.");
            default -> Optional.empty();
        };
    }

    private static Optional<Diagnosis> found(Fault fault, String kind, SQLException e, String advice) {
        return Optional.of(new Diagnosis(fault, kind, cause(e), advice, true));
    }

    private static Optional<Diagnosis> foundInOneTransaction(Fault fault, String kind, SQLException e, String advice) {
        return Optional.of(new Diagnosis(fault, kind, cause(e), advice, false));
    }

    /** The driver's message, first line only and bounded: enough to act on, never a query's text. */
    private static String cause(SQLException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int newline = message.indexOf('\n');
        String line = newline >= 0 ? message.substring(0, newline) : message;
        return line.length() > MAX_CAUSE_LENGTH ? line.substring(0, MAX_CAUSE_LENGTH) + "…" : line;
    }
}
