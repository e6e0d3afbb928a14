package dev.pulseledger.store;

import java.sql.Connection;
import java.util.Objects;
import org.jdbi.v3.core.ConnectionFactory;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Handles;
import org.jdbi.v3.core.Jdbi;

/**
 * Jdbi on the connection a unit of work already holds ({@link Database#inTransaction}, {@link Database#read}):
 * the statements off the ledger's write path are written with named parameters ({@code :id}) and their rows
 * mapped by column name. Jdbi never borrows, commits or closes a connection here: {@link Transactions} owns
 * those, so a write cannot slip past the counter the SQLite balance cache relies on. A failed statement throws
 * Jdbi's {@code JdbiException} around the driver's {@code SQLException}; the unit of work unwraps it and
 * tells a database fault (503) from a bug (500) as it does for plain JDBC.
 *
 * <pre>{@code
 * database.inTransaction(connection -> {
 *     try (Handle sql = Sql.on(connection)) {
 *         return sql.createUpdate("UPDATE plans SET name = :name WHERE id = :id")
 *                 .bind("name", name)
 *                 .bind("id", id)
 *                 .execute() == 1;
 *     }
 * });
 * }</pre>
 */
public final class Sql {
    /** The connection {@link #on} is opening a handle on, for the moment {@link Jdbi#open()} asks for it. */
    private static final ThreadLocal<Connection> OPENING = new ThreadLocal<>();

    private static final Jdbi JDBI = configured(Jdbi.create(new HeldConnection()));

    private Sql() {}

    /** A handle on {@code connection}; closing it leaves the connection open and its transaction as it was. */
    public static Handle on(Connection connection) {
        OPENING.set(Objects.requireNonNull(connection, "connection"));
        try {
            return JDBI.open();
        } finally {
            OPENING.remove();
        }
    }

    private static Jdbi configured(Jdbi jdbi) {
        // The unit of work ends the transaction, not the handle.
        jdbi.getConfig(Handles.class).setForceEndTransactions(false);
        return jdbi;
    }

    /** Hands Jdbi the connection being opened on, and leaves closing it to the unit of work that borrowed it. */
    private static final class HeldConnection implements ConnectionFactory {
        @Override
        public Connection openConnection() {
            return Objects.requireNonNull(OPENING.get(), "Sql.on opens handles; Jdbi does not borrow connections");
        }

        @Override
        public void closeConnection(Connection connection) {
            // Database's unit of work returns it to the pool.
        }
    }
}
