package dev.pulseledger.ledger.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.ledger.core.CreditResult;
import dev.pulseledger.ledger.core.Decision;
import dev.pulseledger.ledger.core.LedgerCommand;
import dev.pulseledger.ledger.core.LedgerCore;
import dev.pulseledger.ledger.core.LedgerOutcome;
import dev.pulseledger.ledger.core.ReleaseResult;
import dev.pulseledger.ledger.core.ReservationStatus;
import dev.pulseledger.ledger.core.ReserveResult;
import dev.pulseledger.ledger.core.RevertResult;
import dev.pulseledger.ledger.core.SettleResult;
import dev.pulseledger.ledger.core.SpendRequest;
import dev.pulseledger.ledger.core.SpendResult;
import dev.pulseledger.ledger.core.StateQuery;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.DatabaseUnavailableException;
import dev.pulseledger.store.Fault;
import dev.pulseledger.store.Ids;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each store writes what the core decides for a batch: later commands see what earlier ones decided. */
class LedgerStoreTest {
    /**
     * The time the rounds here are decided at: after the test accounts' opening lines, which the server
     * writes at the real time (a round behind an account's newest line is decided at that line instead).
     */
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS).plus(Duration.ofHours(1));

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void twoRevertsOfOneSpendingInOneBatchRefundItOnce(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                Database database = LedgerAudit.open(node.databaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            String spendingId = node.caller(caller.key())
                    .post("/api/tokens/spend/100")
                    .json()
                    .get("spendingId")
                    .asText();
            LedgerCommand<?> revert = new LedgerCommand.Revert(caller.accountId(), spendingId);

            List<LedgerOutcome> outcomes = round(database, List.of(revert, revert));

            assertThat(outcomes)
                    .hasSize(2)
                    .allSatisfy(outcome -> assertThat(outcome)
                            .isInstanceOfSatisfying(
                                    RevertResult.Reverted.class,
                                    reverted -> assertThat(reverted.balance()).isEqualTo(1000)));
            assertThat(outcomes.get(1)).isEqualTo(outcomes.get(0));
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aSpendItsRevertAndACreditInOneBatchAreWrittenInQueueOrder(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                Database database = LedgerAudit.open(node.databaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            LedgerCommand<?> spend = new LedgerCommand.Spend(
                    new SpendRequest(caller.accountId(), 300, Optional.empty()), "sp_01aaaaaaaaaaaaaaaaaaaaaaaa");
            LedgerCommand<?> revert = new LedgerCommand.Revert(caller.accountId(), "sp_01aaaaaaaaaaaaaaaaaaaaaaaa");
            LedgerCommand<?> credit = new LedgerCommand.Credit(caller.accountId(), 5, "goodwill", Optional.empty());

            List<LedgerOutcome> outcomes = round(database, List.of(spend, revert, revert, credit));

            assertThat(outcomes.get(0)).isInstanceOf(SpendResult.Spent.class);
            assertThat(outcomes.get(2)).isEqualTo(outcomes.get(1));
            assertThat(outcomes.get(3)).isEqualTo(new CreditResult.Credited(1005, now));
            assertThat(node.caller(caller.key()).balance()).isEqualTo(1005);
            assertThat(node.admin()
                            .get("/admin/accounts/" + caller.accountId() + "/ledger")
                            .json()
                            .get("data")
                            .findValuesAsText("kind"))
                    .containsExactly("credit", "revert", "spend", "credit");
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    /**
     * A round reads the reservations its commands name, with their draws, and writes the ones it makes and
     * ends, a statement for the whole batch (issue 46): several holds made together keep the queue's order,
     * settles, a release, a settle of the just released hold, a repeated settle and an unknown id in one
     * round each get what they would alone, and a hold that expired is still refused to a settle.
     */
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void manyReservationsMadeAndEndedInOneRoundEachGetWhatTheyWouldAlone(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                Database database = LedgerAudit.open(node.databaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            String account = caller.accountId();
            List<String> ids = List.of(Ids.reservation(), Ids.reservation(), Ids.reservation(), Ids.reservation());
            List<LedgerCommand<?>> holds = List.of(
                    new LedgerCommand.Reserve(account, 100, Duration.ofMinutes(30), Optional.empty(), ids.get(0)),
                    new LedgerCommand.Reserve(account, 200, Duration.ofMinutes(30), Optional.empty(), ids.get(1)),
                    new LedgerCommand.Reserve(account, 300, Duration.ofMinutes(30), Optional.empty(), ids.get(2)),
                    new LedgerCommand.Reserve(account, 50, Duration.ofMinutes(5), Optional.empty(), ids.get(3)));
            assertThat(round(database, holds))
                    .allSatisfy(held -> assertThat(held).isInstanceOf(ReserveResult.Reserved.class));

            List<LedgerOutcome> ended = round(
                    database,
                    List.of(
                            new LedgerCommand.Settle(account, ids.get(0), Optional.of(60L), Ids.spending()),
                            new LedgerCommand.Settle(account, ids.get(1), Optional.empty(), Ids.spending()),
                            new LedgerCommand.Release(account, ids.get(2)),
                            new LedgerCommand.Settle(account, ids.get(2), Optional.of(10L), Ids.spending()),
                            new LedgerCommand.Settle(account, ids.get(0), Optional.of(60L), Ids.spending()),
                            new LedgerCommand.Settle(account, Ids.reservation(), Optional.of(1L), Ids.spending())));

            assertThat(ended.get(0))
                    .isInstanceOfSatisfying(
                            SettleResult.Settled.class,
                            settled -> assertThat(settled.reservation().settledAmount())
                                    .contains(60L));
            assertThat(ended.get(1))
                    .isInstanceOfSatisfying(
                            SettleResult.Settled.class,
                            settled -> assertThat(settled.reservation().settledAmount())
                                    .contains(200L));
            assertThat(ended.get(2)).isInstanceOf(ReleaseResult.Released.class);
            assertThat(ended.get(3))
                    .isInstanceOfSatisfying(
                            SettleResult.NotHeld.class,
                            notHeld ->
                                    assertThat(notHeld.reservation().status()).isEqualTo(ReservationStatus.RELEASED));
            assertThat(ended.get(4)).isEqualTo(ended.get(0));
            assertThat(ended.get(5)).isEqualTo(new SettleResult.NotFound());
            assertThat(node.caller(caller.key()).balance()).isEqualTo(1000 - 60 - 200 - 50);

            LedgerOutcome late = round(
                            database,
                            List.of(new LedgerCommand.Settle(account, ids.get(3), Optional.of(5L), Ids.spending())),
                            now.plus(Duration.ofMinutes(10)))
                    .getFirst();

            assertThat(late)
                    .isInstanceOfSatisfying(
                            SettleResult.NotHeld.class,
                            notHeld ->
                                    assertThat(notHeld.reservation().status()).isEqualTo(ReservationStatus.EXPIRED));
            assertThat(node.caller(caller.key()).balance()).isEqualTo(1000 - 60 - 200);
            assertThat(node.admin()
                            .get("/admin/accounts/" + account + "/reservations")
                            .json()
                            .get("data")
                            .findValuesAsText("reservationId"))
                    .containsExactly(ids.get(3), ids.get(2), ids.get(1), ids.get(0));
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    /**
     * A round that ends a reservation which was no longer held (a decision on a stale read, which the account
     * lock prevents) fails and writes none of its rows, on PostgreSQL even though its commit travels in the
     * same round trip as its writes.
     */
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aRoundThatEndsAReservationNoLongerHeldWritesNothing(TestStore store) throws SQLException {
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                Database database = LedgerAudit.open(node.databaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            String hold = Ids.reservation();
            round(
                    database,
                    List.of(new LedgerCommand.Reserve(
                            caller.accountId(), 100, Duration.ofMinutes(30), Optional.empty(), hold)));
            List<LedgerCommand<?>> release = List.of(new LedgerCommand.Release(caller.accountId(), hold));
            LedgerStore ledger = LedgerStore.forDatabase(database, silentOutbox(database), accessChanges(database));
            Decision released = ledger.round(
                    StateQuery.of(release, false, now),
                    Duration.ZERO,
                    state -> LedgerCore.decide(state, release, now, Ids::grant));
            assertThat(released.outcomes()).singleElement().isInstanceOf(ReleaseResult.Released.class);
            long lines = lineCount(node.databaseUrl(), caller.accountId());

            assertThatThrownBy(() -> ledger.round(StateQuery.of(release, false, now), Duration.ZERO, state -> released))
                    .hasStackTraceContaining("A reservation ended twice");

            assertThat(lineCount(node.databaseUrl(), caller.accountId())).isEqualTo(lines);
            assertThat(node.caller(caller.key()).balance()).isEqualTo(1000);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    private static long lineCount(String databaseUrl, String accountId) throws SQLException {
        try (Connection connection = DriverManager.getConnection(databaseUrl);
                PreparedStatement ps =
                        connection.prepareStatement("SELECT count(*) FROM ledger_entries WHERE account_id = ?")) {
            ps.setString(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aRoundWhoseClockIsBehindAnAccountsNewestLineWritesAtThatLine(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                Database database = LedgerAudit.open(node.databaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            round(database, List.of(spendOf(caller, 1)));

            round(database, List.of(spendOf(caller, 2)), now.minus(Duration.ofHours(3)));

            JsonNode lines = node.admin()
                    .get("/admin/accounts/" + caller.accountId() + "/ledger")
                    .json()
                    .get("data");
            assertThat(lines.findValuesAsText("amount")).containsExactly("-2", "-1", "1000");
            assertThat(Instant.parse(lines.get(0).get("createdAt").asText())).isEqualTo(now);
            assertThat(Instant.parse(lines.get(1).get("createdAt").asText())).isEqualTo(now);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aRetriedSpendThatLandedIsReportedNotSpentAgain(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                Database database = LedgerAudit.open(node.databaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            LedgerCommand<?> spend = new LedgerCommand.Spend(
                    new SpendRequest(caller.accountId(), 300, Optional.empty()), "sp_01bbbbbbbbbbbbbbbbbbbbbbbb");
            round(database, List.of(spend));

            LedgerStore ledger = LedgerStore.forDatabase(database, silentOutbox(database), accessChanges(database));
            List<LedgerOutcome> retried = ledger.round(
                            StateQuery.of(List.of(spend), true, now.plusSeconds(1)),
                            Duration.ZERO,
                            state -> LedgerCore.decide(state, List.of(spend), now.plusSeconds(1), Ids::grant))
                    .outcomes();

            assertThat(retried.getFirst())
                    .isInstanceOfSatisfying(
                            SpendResult.Spent.class,
                            spent -> assertThat(spent.balance()).isEqualTo(700));
            assertThat(node.caller(caller.key()).balance()).isEqualTo(700);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aSpendingPaidByOneGrantNamesItInItsRowAndOnePaidBySeveralListsEach(TestStore store) throws SQLException {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            Api api = node.caller(caller.key());
            String single =
                    api.post("/api/tokens/spend/100").json().get("spendingId").asText();
            node.admin()
                    .post(
                            "/admin/accounts/" + caller.accountId() + "/credits",
                            Map.of("amount", 50, "expiresAt", "2099-01-01T00:00:00Z"));
            String split =
                    api.post("/api/tokens/spend/80").json().get("spendingId").asText();

            assertThat(draws(node.databaseUrl(), single)).isEqualTo(new Draws(true, 0));
            assertThat(draws(node.databaseUrl(), split)).isEqualTo(new Draws(false, 2));

            // Partly, then wholly: each return goes back to the grants the spending drew from.
            String path = "/api/tokens/spendings/" + single + "/revert";
            assertThat(api.post(path, Map.of("amount", 40)).status()).isEqualTo(200);
            assertThat(api.post(path).status()).isEqualTo(200);
            assertThat(api.post("/api/tokens/spendings/" + split + "/revert").status())
                    .isEqualTo(200);

            assertThat(api.balance()).isEqualTo(1050);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aHoldPaidByOneGrantNamesItInItsRowAndOnePaidBySeveralListsEach(TestStore store) throws SQLException {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            Api api = node.caller(caller.key());
            String single = hold(api, 100);
            node.admin()
                    .post(
                            "/admin/accounts/" + caller.accountId() + "/credits",
                            Map.of("amount", 50, "expiresAt", "2099-01-01T00:00:00Z"));
            String split = hold(api, 80);
            String released = hold(api, 10);

            assertThat(holdDraws(node.databaseUrl(), single)).isEqualTo(new Draws(true, 0));
            assertThat(holdDraws(node.databaseUrl(), split)).isEqualTo(new Draws(false, 2));
            assertThat(holdDraws(node.databaseUrl(), released)).isEqualTo(new Draws(true, 0));
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();

            // Settled and released: each gives back to the grants it drew from.
            assertThat(end(api, single, "settle", 60)).isEqualTo(200);
            assertThat(end(api, split, "settle", 75)).isEqualTo(200);
            assertThat(end(api, released, "release", 0)).isEqualTo(200);

            assertThat(api.balance()).isEqualTo(1050 - 60 - 75);
            assertThat(holdDraws(node.databaseUrl(), single)).isEqualTo(new Draws(true, 0));
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
            // An ended hold read from its own row: the same settle is answered again, another is refused.
            assertThat(end(api, single, "settle", 60)).isEqualTo(200);
            assertThat(end(api, released, "settle", 5)).isEqualTo(409);
            assertThat(api.balance()).isEqualTo(1050 - 60 - 75);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    private static final String RESERVATIONS = "/api/tokens/reservations";

    /** Settles ({@code amount}) or releases the reservation; returns the status of the answer. */
    private static int end(Api api, String reservationId, String how, long amount) {
        String path = RESERVATIONS + "/" + reservationId + "/" + how;
        return (how.equals("settle") ? api.post(path, Map.of("amount", amount)) : api.post(path)).status();
    }

    private static String hold(Api api, long amount) {
        Reply held = api.post(RESERVATIONS, Map.of("amount", amount));
        assertThat(held.status()).as(held.toString()).isEqualTo(201);
        return held.json().get("reservationId").asText();
    }

    /** Whether a reservation names its one grant in its own row, and how many allocation rows it has. */
    private static Draws holdDraws(String databaseUrl, String reservationId) throws SQLException {
        return draws(
                databaseUrl,
                "SELECT r.grant_id IS NOT NULL, (SELECT COUNT(*) FROM spending_grants g WHERE g.spending_id = r.id)"
                        + " FROM reservations r WHERE r.id = ?",
                reservationId);
    }

    /** Whether a spending names its one grant in its own row, and how many allocation rows it has. */
    private record Draws(boolean namesItsGrant, int allocationRows) {}

    private static Draws draws(String databaseUrl, String spendingId) throws SQLException {
        return draws(
                databaseUrl,
                "SELECT s.grant_id IS NOT NULL, (SELECT COUNT(*) FROM spending_grants g WHERE g.spending_id = s.id)"
                        + " FROM spendings s WHERE s.id = ?",
                spendingId);
    }

    private static Draws draws(String databaseUrl, String sql, String id) throws SQLException {
        try (Connection connection = DriverManager.getConnection(databaseUrl);
                PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return new Draws(rs.getBoolean(1), rs.getInt(2));
            }
        }
    }

    @Test
    void aRoundThatMayNotWaitNamesTheAccountsLockedElsewhereAndWritesNothing() throws Exception {
        try (TestNode node = TestNode.start(TestStore.POSTGRESQL.newDatabaseUrl());
                Database database = LedgerAudit.open(node.databaseUrl());
                Connection outside = DriverManager.getConnection(node.databaseUrl())) {
            Fixtures fixtures = new Fixtures(node);
            Fixtures.Caller free = fixtures.caller(1000);
            Fixtures.Caller locked = fixtures.caller(1000);
            lockFromOutside(outside, locked.accountId());
            List<LedgerCommand<?>> commands = List.of(spendOf(free, 100), spendOf(locked, 100));

            assertThatThrownBy(() -> round(database, commands))
                    .isInstanceOfSatisfying(
                            AccountsBusyException.class,
                            busy -> assertThat(busy.accountIds()).containsExactly(locked.accountId()));
            assertThat(node.caller(free.key()).balance()).isEqualTo(1000);

            assertThat(round(database, List.of(spendOf(free, 100))))
                    .singleElement()
                    .isInstanceOf(SpendResult.Spent.class);
            assertThat(node.caller(free.key()).balance()).isEqualTo(900);
            outside.rollback();
        }
    }

    @Test
    void aRoundThatWaitsGivesUpAfterItsWaitWithAccountBusy() throws Exception {
        try (TestNode node = TestNode.start(TestStore.POSTGRESQL.newDatabaseUrl());
                Database database = LedgerAudit.open(node.databaseUrl());
                Connection outside = DriverManager.getConnection(node.databaseUrl())) {
            Fixtures.Caller locked = new Fixtures(node).caller(1000);
            lockFromOutside(outside, locked.accountId());
            List<LedgerCommand<?>> commands = List.of(spendOf(locked, 100));
            LedgerStore store = LedgerStore.forDatabase(database, silentOutbox(database), accessChanges(database));

            long start = System.nanoTime();
            assertThatThrownBy(() -> store.round(
                            StateQuery.of(commands, true, now),
                            Duration.ofMillis(300),
                            state -> LedgerCore.decide(state, commands, now, Ids::grant)))
                    .isInstanceOfSatisfying(
                            DatabaseUnavailableException.class,
                            e -> assertThat(e.fault()).isEqualTo(Fault.ACCOUNT_BUSY));
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("the wait is the round's own, not the session's")
                    .isLessThan(Duration.ofMillis(900));
            outside.rollback();

            assertThat(store.round(
                                    StateQuery.of(commands, true, now),
                                    Duration.ofMillis(300),
                                    state -> LedgerCore.decide(state, commands, now, Ids::grant))
                            .outcomes())
                    .singleElement()
                    .isInstanceOf(SpendResult.Spent.class);
        }
    }

    /**
     * On PostgreSQL the common changes may carry the round's COMMIT (one round trip less); whatever a round
     * writes after them must then still be in the same transaction, which every row's {@code xmin} names.
     */
    @Test
    void everyRowOfARoundIsWrittenByOneTransaction() throws Exception {
        try (TestNode node = TestNode.start(TestStore.POSTGRESQL.newDatabaseUrl());
                Database database = LedgerAudit.open(node.databaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            String plainId = Ids.spending();
            String revertedId = Ids.spending();
            LedgerCommand<?> plain =
                    new LedgerCommand.Spend(new SpendRequest(caller.accountId(), 100, Optional.empty()), plainId);
            LedgerCommand<?> keyed = new LedgerCommand.Spend(
                    new SpendRequest(caller.accountId(), 300, Optional.of("key-1")), revertedId);
            LedgerCommand<?> revert = new LedgerCommand.Revert(caller.accountId(), revertedId);

            assertThat(round(database, List.of(plain))).singleElement().isInstanceOf(SpendResult.Spent.class);
            assertThat(writers(node.databaseUrl(), caller.accountId(), plainId, "none"))
                    .as("a plain spend's spending, ledger line and balance")
                    .hasSize(1);
            assertThat(round(database, List.of(keyed, revert)))
                    .satisfiesExactly(
                            spent -> assertThat(spent).isInstanceOf(SpendResult.Spent.class),
                            reverted -> assertThat(reverted).isInstanceOf(RevertResult.Reverted.class));
            assertThat(writers(node.databaseUrl(), caller.accountId(), revertedId, "key-1"))
                    .as("the spending, its revert, its idempotency key, its ledger lines and the balance")
                    .hasSize(1);
            assertThat(node.caller(caller.key()).balance()).isEqualTo(900);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    /** The transactions that last wrote the spending, its lines, its idempotency key and the account. */
    private static List<String> writers(String databaseUrl, String accountId, String spendingId, String key)
            throws SQLException {
        String sql = """
                SELECT xmin::text FROM spendings WHERE id = ?
                UNION SELECT xmin::text FROM ledger_entries WHERE spending_id = ?
                UNION SELECT xmin::text FROM idempotency_keys WHERE account_id = ? AND key = ?
                UNION SELECT xmin::text FROM accounts WHERE id = ?""";
        try (Connection connection = DriverManager.getConnection(databaseUrl);
                PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, spendingId);
            ps.setString(2, spendingId);
            ps.setString(3, accountId);
            ps.setString(4, key);
            ps.setString(5, accountId);
            List<String> writers = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    writers.add(rs.getString(1));
                }
            }
            return writers;
        }
    }

    /** An outside session takes the account's row lock and keeps its transaction open. */
    private static void lockFromOutside(Connection outside, String accountId) throws SQLException {
        outside.setAutoCommit(false);
        try (PreparedStatement ps = outside.prepareStatement("SELECT 1 FROM accounts WHERE id = ? FOR UPDATE")) {
            ps.setString(1, accountId);
            ps.executeQuery().close();
        }
    }

    private static LedgerCommand<?> spendOf(Fixtures.Caller caller, long amount) {
        return new LedgerCommand.Spend(new SpendRequest(caller.accountId(), amount, Optional.empty()), Ids.spending());
    }

    private List<LedgerOutcome> round(Database database, List<LedgerCommand<?>> commands) {
        return round(database, commands, now);
    }

    private static List<LedgerOutcome> round(Database database, List<LedgerCommand<?>> commands, Instant at) {
        return LedgerStore.forDatabase(database, silentOutbox(database), accessChanges(database))
                .round(
                        StateQuery.of(commands, false, at),
                        Duration.ZERO,
                        state -> LedgerCore.decide(state, commands, at, Ids::grant))
                .outcomes();
    }

    private static AccessChangeLog accessChanges(Database database) {
        return new AccessChangeLog(database, database, java.time.Clock.systemUTC());
    }

    /** An outbox whose events nobody here listens to. */
    private static Outbox silentOutbox(Database database) {
        return new Outbox(database, (connection, events, at) -> {});
    }
}
