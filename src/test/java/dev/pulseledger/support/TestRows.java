package dev.pulseledger.support;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Sql;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/** A fresh migrated database of a test store, and rows written and read in it by named parameters. */
public final class TestRows {
    private TestRows() {}

    /** A small pool on a fresh database of {@code store}, migrated to the current schema. */
    public static Database open(TestStore store) {
        return Database.open(new Database.Settings(
                store.newDatabaseUrl(), 2, Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30)));
    }

    /** Runs one statement, binding {@code values} by name. */
    public static void update(Database database, String sql, Map<String, ?> values) {
        database.runInTransaction(connection -> {
            try (Handle handle = Sql.on(connection)) {
                handle.createUpdate(sql).bindMap(values).execute();
            }
        });
    }

    /** The first column of every row {@code sql} returns, as strings. */
    public static List<String> strings(Database database, String sql) {
        return database.read(connection -> {
            try (Handle handle = Sql.on(connection)) {
                return handle.createQuery(sql).mapTo(String.class).list();
            }
        });
    }
}
