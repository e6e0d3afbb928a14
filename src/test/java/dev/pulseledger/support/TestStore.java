package dev.pulseledger.support;

import dev.pulseledger.store.Dialect;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;
import org.flywaydb.core.Flyway;

/**
 * The two stores every shared test runs against. Each call of {@link #newDatabaseUrl()} gives a
 * fresh, empty database: a new SQLite file, or a new PostgreSQL database on the server named by
 * {@code PULSELEDGER_TEST_POSTGRES_URL} (default: the local server, user postgres), or, when nothing
 * answers there outside CI, on an embedded server (see {@link EmbeddedPostgres}).
 */
public enum TestStore {
    SQLITE,
    POSTGRESQL;

    public static final String POSTGRES_URL_ENV = "PULSELEDGER_TEST_POSTGRES_URL";
    private static final String DEFAULT_POSTGRES_URL = "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres";

    public String newDatabaseUrl() {
        return switch (this) {
            case SQLITE -> "jdbc:sqlite:" + newSqliteFile();
            case POSTGRESQL -> newPostgresDatabase();
        };
    }

    /** A fresh database holding the schema up to migration {@code version}, as an older release left it. */
    public String newDatabaseUrlMigratedTo(String version) {
        String url = newDatabaseUrl();
        Flyway.configure()
                .dataSource(url, null, null)
                .locations(Dialect.fromUrl(url).migrations())
                .target(version)
                .load()
                .migrate();
        return url;
    }

    private static Path newSqliteFile() {
        try {
            return Files.createTempDirectory("pulseledger-test").resolve("pulseledger.db");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The maintenance URL of the test PostgreSQL server: the one at {@code PULSELEDGER_TEST_POSTGRES_URL}
     * when it answers (and always under CI, which must have one), else an embedded server this JVM starts
     * once.
     */
    public static String postgresServerUrl() {
        return PostgresServer.URL;
    }

    /** The URL the tests were told to use, answering or not. */
    private static String configuredPostgresUrl() {
        String url = System.getenv(POSTGRES_URL_ENV);
        return url == null || url.isBlank() ? DEFAULT_POSTGRES_URL : url;
    }

    /** Decided once per JVM, on first use, so that a JVM without PostgreSQL tests starts no server. */
    private static final class PostgresServer {
        static final String URL = choose();

        private static String choose() {
            String configured = configuredPostgresUrl();
            if (answers(configured) || "true".equals(System.getenv("CI"))) {
                return configured;
            }
            try {
                String embedded = EmbeddedPostgres.start().url();
                System.err.println("PostgreSQL: nothing answers at " + configured + " (" + POSTGRES_URL_ENV
                        + "); the tests use an embedded PostgreSQL at " + embedded);
                return embedded;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        /**
         * Whether a server accepts connections there. A server that answers but refuses us (a wrong
         * password) counts as answering, so that the tests fail with its message rather than go elsewhere.
         */
        private static boolean answers(String url) {
            Properties timeouts = new Properties();
            timeouts.setProperty("connectTimeout", "3");
            timeouts.setProperty("loginTimeout", "5");
            try (Connection connection = DriverManager.getConnection(url, timeouts)) {
                return connection.isValid(5);
            } catch (SQLException e) {
                return e.getSQLState() == null || !e.getSQLState().startsWith("08");
            }
        }
    }

    private static String newPostgresDatabase() {
        String name = "pulseledger_test_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
        String server = postgresServerUrl();
        try (Connection connection = DriverManager.getConnection(server);
                Statement statement = connection.createStatement()) {
            // The name is made here from hex digits only, never from input.
            statement.execute("CREATE DATABASE " + name);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> dropQuietly(server, name)));
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "PostgreSQL is required for the tests and is not reachable at " + server + " (" + POSTGRES_URL_ENV
                            + "): " + e.getMessage(),
                    e);
        }
        return server.replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1");
    }

    private static void dropQuietly(String server, String name) {
        try (Connection connection = DriverManager.getConnection(server);
                Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (SQLException e) {
            // Best effort: a leftover test database harms nothing but disk space.
        }
    }
}
