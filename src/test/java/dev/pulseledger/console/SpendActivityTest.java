package dev.pulseledger.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.store.Database;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The dashboard's counts reach the table whole, and a second flush adds to the first, on both stores. */
class SpendActivityTest {
    private static final Instant HOUR = Instant.parse("2026-11-23T10:00:00Z");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void flushesAddEveryAccountsCountsToItsHour(TestStore store) {
        TestClock clock = new TestClock(HOUR.plusSeconds(60));
        try (Database database = Database.open(new Database.Settings(
                        store.newDatabaseUrl(),
                        2,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(30),
                        Duration.ofSeconds(10)));
                SpendActivity activity = new SpendActivity(database, clock).start()) {
            activity.spent("acct_a", 5);
            activity.spent("acct_a", 7);
            activity.refused("acct_a");
            activity.spent("acct_b", 1);
            activity.flush();
            activity.spent("acct_a", 3);
            clock.advance(Duration.ofHours(1));
            activity.refused("acct_b");
            activity.flush();

            assertThat(rows(database))
                    .containsExactly(
                            HOUR.toEpochMilli() + " acct_a 3 15 1",
                            HOUR.toEpochMilli() + " acct_b 1 1 0",
                            HOUR.plus(Duration.ofHours(1)).toEpochMilli() + " acct_b 0 0 1");
        }
    }

    private static List<String> rows(Database database) {
        return database.read(connection -> {
            List<String> rows = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(
                            "SELECT hour_start, account_id, spends, tokens, refusals FROM spend_activity"
                                    + " ORDER BY hour_start, account_id");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(rs.getLong(1) + " " + rs.getString(2) + " " + rs.getLong(3) + " " + rs.getLong(4) + " "
                            + rs.getLong(5));
                }
            }
            return rows;
        });
    }
}
