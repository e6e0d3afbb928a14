package dev.pulseledger.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.store.Database;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A spend changes an account's balance and a grant's remaining tokens, and no index reads either: on
 * PostgreSQL both updates may stay in place (HOT) instead of adding entries to every index of the table,
 * and on SQLite the grant's index entries are not rewritten. The live-grant index follows a grant
 * running out and coming back.
 */
class GrantIndexesTest {
    /** Each index's definition, by store. */
    private static final Map<TestStore, String> INDEX_DEFINITIONS = Map.of(
            TestStore.POSTGRESQL,
            "SELECT indexdef FROM pg_indexes WHERE tablename IN ('accounts', 'grants')",
            TestStore.SQLITE,
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('accounts', 'grants')"
                    + " AND sql IS NOT NULL");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void noIndexOfAccountsOrGrantsReadsWhatASpendChanges(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                Database database = LedgerAudit.open(node.databaseUrl())) {
            List<String> definitions = database.read(connection -> {
                List<String> found = new ArrayList<>();
                try (PreparedStatement ps = connection.prepareStatement(INDEX_DEFINITIONS.get(store));
                        ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        found.add(rs.getString(1));
                    }
                }
                return found;
            });

            assertThat(definitions)
                    .anySatisfy(d ->
                            assertThat(d).containsIgnoringCase("grants_live").containsIgnoringCase("WHERE live"));
            assertThat(definitions).noneSatisfy(d -> assertThat(d).containsAnyOf("remaining", "balance"));
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aGrantSpentToNothingAndRevertedIsSpentFromAgain(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(100);
            String spendingId = node.caller(caller.key())
                    .post("/api/tokens/spend/100")
                    .json()
                    .get("spendingId")
                    .asText();
            assertThat(node.caller(caller.key()).post("/api/tokens/spend/1").status())
                    .isEqualTo(402);

            node.caller(caller.key()).post("/api/tokens/spendings/" + spendingId + "/revert");

            assertThat(node.caller(caller.key()).post("/api/tokens/spend/60").status())
                    .isEqualTo(201);
            assertThat(node.caller(caller.key())
                            .get("/api/tokens/balance")
                            .json()
                            .get("balance")
                            .asLong())
                    .isEqualTo(40);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }
}
