package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pulseledger.support.TestStore;
import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Statements run through {@link Sql} stay inside the unit of work that holds the connection: a closed handle
 * neither commits nor ends the transaction, a failure rolls back all of it, and a database fault inside Jdbi's
 * exception still answers 503 as one from plain JDBC does.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
class SqlHandlesTest {
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aClosedHandleLeavesTheTransactionToItsUnitOfWork(TestStore store) {
        try (Database database = open(store.newDatabaseUrl(), Duration.ofSeconds(5))) {
            database.inTransaction(connection -> update(connection, "CREATE TABLE scratch (x INTEGER)"));

            assertThatThrownBy(() -> database.inTransaction(connection -> {
                        try (Handle sql = Sql.on(connection)) {
                            sql.createUpdate("INSERT INTO scratch VALUES (:x)")
                                    .bind("x", 1)
                                    .execute();
                        }
                        try (Handle sql = Sql.on(connection)) {
                            sql.createUpdate("INSERT INTO scratch VALUES (:x)")
                                    .bind("x", 2)
                                    .execute();
                        }
                        throw new IllegalStateException("fails after two handles wrote and closed");
                    }))
                    .isInstanceOf(IllegalStateException.class);
            assertThat(count(database))
                    .as("both inserts rolled back with their transaction")
                    .isZero();

            database.inTransaction(connection -> update(connection, "INSERT INTO scratch VALUES (3)"));
            assertThat(count(database)).isEqualTo(1);
        }
    }

    /** A store that calls another store inside its own handle opens a second handle on the same connection. */
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aHandleOpenedInsideAnotherWritesInTheSameTransaction(TestStore store) {
        try (Database database = open(store.newDatabaseUrl(), Duration.ofSeconds(5))) {
            database.inTransaction(connection -> update(connection, "CREATE TABLE scratch (x INTEGER)"));

            assertThatThrownBy(() -> database.inTransaction(connection -> {
                        try (Handle outer = Sql.on(connection)) {
                            outer.createUpdate("INSERT INTO scratch VALUES (:x)")
                                    .bind("x", 1)
                                    .execute();
                            try (Handle inner = Sql.on(connection)) {
                                inner.createUpdate("INSERT INTO scratch VALUES (:x)")
                                        .bind("x", 2)
                                        .execute();
                            }
                            outer.createUpdate("INSERT INTO scratch VALUES (:x)")
                                    .bind("x", 3)
                                    .execute();
                        }
                        throw new IllegalStateException("fails after the nested handles wrote and closed");
                    }))
                    .isInstanceOf(IllegalStateException.class);
            assertThat(count(database))
                    .as("all three inserts rolled back with their transaction")
                    .isZero();

            database.inTransaction(connection -> {
                try (Handle outer = Sql.on(connection)) {
                    outer.createUpdate("INSERT INTO scratch VALUES (:x)")
                            .bind("x", 1)
                            .execute();
                    try (Handle inner = Sql.on(connection)) {
                        inner.createUpdate("INSERT INTO scratch VALUES (:x)")
                                .bind("x", 2)
                                .execute();
                    }
                    return outer.createUpdate("INSERT INTO scratch VALUES (:x)")
                            .bind("x", 3)
                            .execute();
                }
            });
            assertThat(count(database)).as("all three committed together").isEqualTo(3);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aBugInAStatementIsNotTakenForAnOutage(TestStore store) {
        try (Database database = open(store.newDatabaseUrl(), Duration.ofSeconds(5))) {
            assertThatThrownBy(() -> database.read(connection -> {
                        try (Handle sql = Sql.on(connection)) {
                            return sql.createQuery("SELECT x FROM no_such_table")
                                    .mapTo(Long.class)
                                    .list();
                        }
                    }))
                    .isInstanceOf(StoreException.class);
        }
    }

    @Test
    void aStatementTimeoutInsideJdbiAnswersAsADatabaseFault() {
        try (Database database = open(TestStore.POSTGRESQL.newDatabaseUrl(), Duration.ofMillis(300))) {
            assertThatThrownBy(() -> database.read(connection -> {
                        try (Handle sql = Sql.on(connection)) {
                            return sql.createQuery("SELECT pg_sleep(30)::text")
                                    .mapTo(String.class)
                                    .one();
                        }
                    }))
                    .isInstanceOf(DatabaseUnavailableException.class);
            assertThatThrownBy(() -> database.inTransaction(connection -> {
                        try (Handle sql = Sql.on(connection)) {
                            return sql.createUpdate("SELECT pg_sleep(30)").execute();
                        }
                    }))
                    .isInstanceOf(DatabaseUnavailableException.class);
        }
    }

    private static Database open(String url, Duration statementTimeout) {
        return Database.open(
                new Database.Settings(url, 2, Duration.ofSeconds(5), statementTimeout, Duration.ofSeconds(10)));
    }

    private static int update(Connection connection, String text) {
        try (Handle sql = Sql.on(connection)) {
            return sql.createUpdate(text).execute();
        }
    }

    private static long count(Database database) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery("SELECT count(*) FROM scratch")
                        .mapTo(Long.class)
                        .one();
            }
        });
    }
}
