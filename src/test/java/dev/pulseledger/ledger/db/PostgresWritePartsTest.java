package dev.pulseledger.ledger.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.ledger.db.PostgresLedgerSql.WritePart;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** The PostgreSQL round's write sends only the parts a round has rows for (LedgerStoreTest runs them). */
class PostgresWritePartsTest {
    @Test
    void aSpendsWriteLeavesOutTheTablesItDoesNotChange() {
        String sql = PostgresLedgerSql.write(
                        EnumSet.of(WritePart.BALANCES, WritePart.SPENDINGS, WritePart.CHANGED_GRANTS, WritePart.LINES),
                        true)
                .sql();
        assertThat(sql)
                .contains("UPDATE accounts", "INSERT INTO spendings", "UPDATE grants", "INSERT INTO ledger_entries")
                .doesNotContain("INSERT INTO grants", "spending_grants", "reservations", "force_custom_plan")
                .endsWith("COMMIT");
    }

    @Test
    void aWriteOfReservationsAloneSendsNoLinesStatement() {
        String sql = PostgresLedgerSql.write(EnumSet.of(WritePart.RESERVATIONS), false)
                .sql();
        assertThat(sql)
                .startsWith("SET LOCAL plan_cache_mode = force_custom_plan")
                .contains("INSERT INTO reservations")
                .doesNotContain("WITH batch", "ledger_entries", "COMMIT");
    }

    @Test
    void changesWithoutLinesAreStillWrittenAsCtes() {
        String sql = PostgresLedgerSql.write(EnumSet.of(WritePart.CHANGED_GRANTS), false)
                .sql();
        assertThat(sql).startsWith("WITH batch").contains("UPDATE grants").endsWith("SELECT 1");
    }

    @Test
    void eachShapeIsParsedOnce() {
        EnumSet<WritePart> parts = EnumSet.of(WritePart.BALANCES, WritePart.LINES);
        assertThat(PostgresLedgerSql.write(parts, true)).isSameAs(PostgresLedgerSql.write(EnumSet.copyOf(parts), true));
        assertThat(PostgresLedgerSql.write(parts, false)).isNotSameAs(PostgresLedgerSql.write(parts, true));
    }
}
