package dev.pulseledger.ledger.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.events.Outbox;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.ledger.core.LedgerCommand;
import dev.pulseledger.ledger.core.LedgerCore;
import dev.pulseledger.ledger.core.SpendRequest;
import dev.pulseledger.ledger.core.StateQuery;
import dev.pulseledger.ledger.read.BalanceReader;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Ids;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * On PostgreSQL the hot statements run on kept plans instead of being planned again each time: the
 * ledger round's statements, which take arrays, and a balance read of one account. Read from
 * {@code pg_prepared_statements} of the one session that ran them.
 */
class PlanReuseTest {
    /**
     * PgJDBC prepares a statement on the server at its 5th use (prepareThreshold), and PostgreSQL plans
     * the first five executions of a prepared statement afresh before it may keep a plan.
     */
    private static final int RUNS = 12;

    @Test
    void aLedgerRoundsStatementsRunOnKeptPlans() {
        try (TestNode node = TestNode.start(TestStore.POSTGRESQL.newDatabaseUrl());
                Database database = oneSession(node)) {
            Fixtures.Caller caller = new Fixtures(node).caller(1_000);
            LedgerStore store = LedgerStore.forDatabase(
                    database,
                    new Outbox(database, (connection, events, at) -> {}),
                    new AccessChangeLog(database, database, Clock.systemUTC()));
            Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS).plus(Duration.ofHours(1));
            for (int i = 0; i < RUNS; i++) {
                List<LedgerCommand<?>> spend = List.of(new LedgerCommand.Spend(
                        new SpendRequest(caller.accountId(), 1, Optional.empty()), Ids.spending()));
                Instant at = now.plusSeconds(i);
                store.round(
                        StateQuery.of(spend, false, at),
                        Duration.ZERO,
                        state -> LedgerCore.decide(state, spend, at, Ids::grant));
            }

            Map<String, long[]> plans = plans(database);

            assertThat(plans)
                    .as("the lock, the grants read and the write")
                    .hasEntrySatisfying("FOR UPDATE", PlanReuseTest::keptOnly)
                    .hasEntrySatisfying("FROM grants g WHERE g.live", PlanReuseTest::keptOnly)
                    .hasEntrySatisfying("INSERT INTO ledger_entries", PlanReuseTest::keptOnly);
        }
    }

    @Test
    void aBalanceReadOfOneAccountRunsOnAKeptPlan() {
        try (TestNode node = TestNode.start(TestStore.POSTGRESQL.newDatabaseUrl());
                Database database = oneSession(node);
                BalanceReader reader = new BalanceReader(database, Duration.ofSeconds(5), view -> new byte[0])) {
            Fixtures.Caller caller = new Fixtures(node).caller(1_000);
            for (int i = 0; i < RUNS; i++) {
                assertThat(reader.balance(caller.accountId()))
                        .hasValueSatisfying(view -> assertThat(view.balance()).isEqualTo(1_000));
            }

            assertThat(plans(database))
                    .hasEntrySatisfying(
                            "FROM accounts a",
                            counts -> assertThat(counts[0])
                                    .as("generic plans of the balance read")
                                    .isPositive());
        }
    }

    private static Database oneSession(TestNode node) {
        return Database.openWithoutMigrating(new Database.Settings(
                node.databaseUrl(), 1, Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(10)));
    }

    private static void keptOnly(long[] counts) {
        assertThat(counts[0]).as("generic plans").isPositive();
        assertThat(counts[1]).as("custom plans").isZero();
    }

    /**
     * The session's prepared statements' plan counts ({generic, custom}) under the first of these markers
     * their text contains.
     */
    private static Map<String, long[]> plans(Database database) {
        List<String> markers =
                List.of("FOR UPDATE", "FROM grants g WHERE g.live", "INSERT INTO ledger_entries", "FROM accounts a");
        return database.read(connection -> {
            Map<String, long[]> found = new HashMap<>();
            try (PreparedStatement ps = connection.prepareStatement(
                            "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String statement = rs.getString(1);
                    long[] counts = {rs.getLong(2), rs.getLong(3)};
                    markers.stream()
                            .filter(statement::contains)
                            .findFirst()
                            .ifPresent(marker ->
                                    found.merge(marker, counts, (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]}));
                }
            }
            return found;
        });
    }
}
