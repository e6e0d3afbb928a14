package dev.pulseledger.ledger.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.TestStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The ledger's hand-written write SQL names only columns that the migrated schema of its database has:
 * each table's one column list, and every column an INSERT or UPDATE of that database's SQL file names.
 */
class LedgerSqlColumnsTest {
    private static final Pattern INSERT = Pattern.compile("INSERT INTO (\\w+) \\(([^)]*)\\)");
    private static final Pattern UPDATE = Pattern.compile("UPDATE (\\w+)(?: \\w+)? SET (.*?)(?: FROM | WHERE |$)");
    private static final Pattern ASSIGNED = Pattern.compile("(\\w+) = ");
    private static final Pattern NAME = Pattern.compile("\\w+");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void everyColumnTheWriteSqlNamesIsInTheMigratedSchema(TestStore store) throws SQLException {
        String url = store.newDatabaseUrlMigratedTo("latest");
        try (Connection connection = DriverManager.getConnection(url)) {
            for (LedgerTables.Table table : LedgerTables.ALL) {
                assertThat(columns(connection, table.name()))
                        .as("columns of " + table.name())
                        .containsAll(table.columns());
            }
            List<String> statements = new ArrayList<>();
            switch (store) {
                case POSTGRESQL ->
                    statements.addAll(List.of(
                            PostgresLedgerSql.write(EnumSet.allOf(PostgresLedgerSql.WritePart.class), true)
                                    .sql(),
                            PostgresLedgerSql.LOCK_AND_READ_RESERVATIONS.sql(),
                            PostgresLedgerSql.EXISTING.sql()));
                case SQLITE ->
                    statements.addAll(List.of(
                            SqliteLedgerSql.UPDATE_BALANCE.sql(),
                            SqliteLedgerSql.INSERT_SPENDING.sql(),
                            SqliteLedgerSql.INSERT_GRANT.sql(),
                            SqliteLedgerSql.UPDATE_LIVE_GRANT.sql(),
                            SqliteLedgerSql.UPDATE_GRANT_AND_LIVENESS.sql(),
                            SqliteLedgerSql.INSERT_ALLOCATION.sql(),
                            SqliteLedgerSql.INSERT_LINE.sql(),
                            SqliteLedgerSql.INSERT_RESERVATION.sql(),
                            SqliteLedgerSql.END_RESERVATION.sql(),
                            SqliteLedgerSql.RETURN_DRAW.sql()));
            }
            int checked = 0;
            for (String sql : statements) {
                String flat = sql.replaceAll("\\s+", " ");
                Matcher insert = INSERT.matcher(flat);
                while (insert.find()) {
                    Matcher column = NAME.matcher(insert.group(2));
                    while (column.find()) {
                        assertThat(columns(connection, insert.group(1)))
                                .as("INSERT INTO " + insert.group(1) + " in: " + flat)
                                .contains(column.group());
                        checked++;
                    }
                }
                Matcher update = UPDATE.matcher(flat);
                while (update.find()) {
                    Matcher assigned = ASSIGNED.matcher(update.group(2));
                    while (assigned.find()) {
                        assertThat(columns(connection, update.group(1)))
                                .as("UPDATE " + update.group(1) + " in: " + flat)
                                .contains(assigned.group(1));
                        checked++;
                    }
                }
            }
            assertThat(checked).as("columns checked in the SQL").isGreaterThan(25);
        }
    }

    private static Set<String> columns(Connection connection, String table) throws SQLException {
        Set<String> columns = new HashSet<>();
        try (ResultSet rs = connection.getMetaData().getColumns(null, null, table, null)) {
            while (rs.next()) {
                columns.add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
            }
        }
        assertThat(columns).as("table " + table + " exists").isNotEmpty();
        return columns;
    }
}
