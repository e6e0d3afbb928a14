package dev.pulseledger.sla;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.JarNode;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CONTRACT §13 under a crash: three packaged nodes on one PostgreSQL, their clocks running six hours per
 * second so that every account's daily period ends every four seconds while a service is down throughout;
 * one node is killed with SIGKILL while the period-end sweeps are crediting. After a last node has caught
 * up, every ended period of every account is measured exactly once (a chain with no gap and no repeat),
 * each with its 25 % credit, each credit a grant, a ledger line and an event of its own, and verify is clean.
 */
class SlaSweepCrashIT {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final long RATE = 6 * 3600;
    private static final int ACCOUNTS = 150;
    private static final long ALLOWANCE = 1000;
    private static final long CREDIT = ALLOWANCE * 25 / 100;
    private static final long DAY_MILLIS = Duration.ofDays(1).toMillis();

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void aNodeKilledDuringTheSweepLeavesEveryPeriodCreditedOnce() throws Exception {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        long realStart = System.currentTimeMillis();
        List<JarNode> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(JarNode.startWithFastClock(url, START, realStart, RATE));
            }
            Api admin = nodes.getFirst().admin();
            PlanSlaTest.service(admin, "api");
            Reply down = admin.patch("/admin/services/api", Map.of("status", "major_outage"));
            assertThat(down.status()).as(down.toString()).isEqualTo(200);
            Reply plan = admin.post(
                    "/admin/plans",
                    Map.of(
                            "id", "pro",
                            "name", "Pro",
                            "allowance", ALLOWANCE,
                            "period", "day",
                            "sla",
                                    Map.of(
                                            "services",
                                            List.of("api"),
                                            "tiers",
                                            List.of(
                                                    Map.of("below", 0.999, "creditPercent", 10),
                                                    Map.of("below", 0.99, "creditPercent", 25)))));
            assertThat(plan.status()).as(plan.toString()).isEqualTo(201);
            Fixtures fixtures = new Fixtures(admin);
            for (int i = 0; i < ACCOUNTS; i++) {
                fixtures.account("pro", 0);
            }

            // Kill a node the moment the measured periods are seen growing: its sweep is crediting then.
            Waiting.until("two periods of each account measured", () -> measuredPeriods(url) >= 2L * ACCOUNTS);
            long before = measuredPeriods(url);
            Waiting.until("the sweeps crediting", () -> measuredPeriods(url) > before);
            nodes.get(1).kill();
            long atKill = measuredPeriods(url);
            Waiting.until(
                    "two more periods of each account measured after the kill",
                    () -> measuredPeriods(url) >= atKill + 2L * ACCOUNTS);
        } finally {
            nodes.forEach(JarNode::close);
        }

        // A last node whose clock runs at the real pace from where the fast clocks were: it renews every
        // account into its current period and measures every period that ended, then nothing more ends.
        Instant end = START.plusMillis((System.currentTimeMillis() - realStart) * RATE);
        try (JarNode last = JarNode.startWithFastClock(url, end, System.currentTimeMillis(), 1)) {
            Waiting.until("the node at " + last.baseUrl() + " caught up", () -> caughtUp(url, end.toEpochMilli()));
        }

        Map<String, List<long[]>> periods = periodsByAccount(url);
        assertThat(periods).hasSize(ACCOUNTS);
        for (Map.Entry<String, List<long[]>> account : periods.entrySet()) {
            List<long[]> chain = account.getValue();
            for (int i = 1; i < chain.size(); i++) {
                assertThat(chain.get(i)[0])
                        .as("period %d of %s starts where the one before ended", i, account.getKey())
                        .isEqualTo(chain.get(i - 1)[1]);
            }
            assertThat(chain).allSatisfy(period -> {
                assertThat(period[2]).as("credit percent").isEqualTo(25);
                assertThat(period[3]).as("credited tokens").isEqualTo(CREDIT);
            });
        }
        long measured = periods.values().stream().mapToLong(List::size).sum();
        assertThat(count(url, "SELECT COUNT(*) FROM sla_periods WHERE grant_id IS NOT NULL"))
                .isEqualTo(measured);
        assertThat(count(
                        url,
                        "SELECT COUNT(DISTINCT g.id) FROM grants g JOIN sla_periods s ON s.grant_id = g.id"
                                + " AND g.account_id = s.account_id AND g.amount = s.amount"))
                .isEqualTo(measured);
        assertThat(count(url, "SELECT COUNT(*) FROM ledger_entries WHERE kind = 'sla_credit'"))
                .isEqualTo(measured);
        assertThat(count(url, "SELECT COUNT(*) FROM events WHERE type = 'sla.credited'"))
                .isEqualTo(measured);
        assertThat(LedgerAudit.mismatches(url)).isEmpty();
    }

    private static long measuredPeriods(String url) {
        return count(url, "SELECT COUNT(*) FROM sla_periods");
    }

    /**
     * Every account is in the period that holds {@code now} (renewed) and has its first period after
     * opening and every later ended one measured.
     */
    private static boolean caughtUp(String url, long now) {
        List<long[]> accounts = SlaCreditsTest.rows(
                url,
                "SELECT a.period_anchor, a.period_start,"
                        + " (SELECT MIN(s.period_start) FROM sla_periods s WHERE s.account_id = a.id),"
                        + " (SELECT MAX(s.period_end) FROM sla_periods s WHERE s.account_id = a.id)"
                        + " FROM accounts a",
                rs -> new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)});
        return accounts.size() == ACCOUNTS
                && accounts.stream().allMatch(a -> a[1] + DAY_MILLIS > now && a[2] == a[0] && a[3] == a[1]);
    }

    /** Each account's measured periods, oldest first: start, end, credit percent, amount. */
    private static Map<String, List<long[]>> periodsByAccount(String url) {
        Map<String, List<long[]>> periods = new HashMap<>();
        SlaCreditsTest.rows(
                        url,
                        "SELECT account_id, period_start, period_end, credit_percent, amount FROM sla_periods"
                                + " ORDER BY account_id, period_start",
                        rs -> Map.entry(
                                rs.getString(1),
                                new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)}))
                .forEach(row -> periods.computeIfAbsent(row.getKey(), k -> new ArrayList<>())
                        .add(row.getValue()));
        return periods;
    }

    private static long count(String url, String sql) {
        return SlaCreditsTest.rows(url, sql, rs -> rs.getLong(1)).getFirst();
    }
}
