package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.store.Database;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.JarNode;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.Simultaneously;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CONTRACT §6.3 with §7: the packaged node, its clock running twelve hours per second so that daily
 * renewals and credit expiries happen all through a spend load, killed with SIGKILL and started again,
 * has every spending it acknowledged, no half-applied change, and no period renewed twice.
 */
class RenewalCrashIT {
    private static final int THREADS = 8;
    private static final int ACKNOWLEDGED_BEFORE_KILL = 200;
    private static final long RATE = 12 * 3600;
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    @Timeout(value = 300, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void aKillDuringRenewalsAndExpiriesLosesNothingAndRenewsNothingTwice(TestStore store) throws Exception {
        String url = store.newDatabaseUrl();
        long realStart = System.currentTimeMillis();
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        Set<String> reverted = ConcurrentHashMap.newKeySet();
        List<String> keys = new ArrayList<>();
        try (JarNode node = JarNode.startWithFastClock(url, START, realStart, RATE)) {
            Api admin = node.admin();
            Reply plan = admin.post(
                    "/admin/plans",
                    Map.of("id", "daily", "name", "Daily", "allowance", 5000, "period", "day", "rollover", 500));
            assertThat(plan.status()).as(plan.toString()).isEqualTo(201);
            Fixtures fixtures = new Fixtures(admin);
            List<String> accounts = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                accounts.add(fixtures.account("daily", 1000));
                keys.add(fixtures.key(accounts.getLast()));
            }
            AtomicBoolean stop = new AtomicBoolean();
            List<CompletableFuture<Object>> load = Simultaneously.start(THREADS, thread -> {
                Random random = new Random(thread);
                List<String> mine = new ArrayList<>();
                while (!stop.get()) {
                    int which = thread % keys.size();
                    Api caller = new Api(node.baseUrl(), keys.get(which));
                    try {
                        int pick = random.nextInt(10);
                        if (pick < 6) {
                            Reply spent = caller.post("/api/tokens/spend/" + (1 + random.nextInt(40)));
                            if (spent.status() == 201) {
                                mine.add(spent.json().get("spendingId").asText());
                                acknowledged.add(keys.get(which) + " " + mine.getLast());
                            }
                        } else if (pick < 8 && !mine.isEmpty()) {
                            String id = mine.get(random.nextInt(mine.size()));
                            if (caller.post("/api/tokens/spendings/" + id + "/revert")
                                            .status()
                                    == 200) {
                                reverted.add(id);
                            }
                        } else {
                            Instant expiresAt = START.plusMillis((System.currentTimeMillis() - realStart) * RATE)
                                    .plus(Duration.ofHours(1 + random.nextInt(30)));
                            admin.post(
                                    "/admin/accounts/" + accounts.get(which) + "/credits",
                                    Map.of("amount", 50, "expiresAt", expiresAt.toString()));
                        }
                    } catch (RuntimeException e) {
                        return null; // the node is gone
                    }
                }
                return null;
            });
            Waiting.within(
                    Duration.ofSeconds(60),
                    () -> acknowledged.size() >= ACKNOWLEDGED_BEFORE_KILL
                            || load.stream().anyMatch(CompletableFuture::isDone));
            node.kill();
            stop.set(true);
            CompletableFuture.allOf(load.toArray(CompletableFuture[]::new)).join();
        }
        assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(ACKNOWLEDGED_BEFORE_KILL);

        try (JarNode restarted = JarNode.startWithFastClock(url, START, realStart, RATE)) {
            for (String entry : acknowledged) {
                String[] keyAndId = entry.split(" ", -1);
                Reply spending = new Api(restarted.baseUrl(), keyAndId[0]).get("/api/tokens/spendings/" + keyAndId[1]);
                assertThat(spending.status()).as(entry).isEqualTo(200);
                if (reverted.contains(keyAndId[1])) {
                    assertThat(spending.json().get("status").asText()).isEqualTo("reverted");
                }
            }
            // The restarted node renews the periods that ended while it was down, once each.
            for (String key : keys) {
                assertThat(new Api(restarted.baseUrl(), key)
                                .get("/api/tokens/balance")
                                .status())
                        .isEqualTo(200);
            }
        }
        assertThat(LedgerAudit.mismatches(url)).isEmpty();
        // The opening grant and at least one renewal each: on a loaded machine the kill can come
        // before an account's second period end, so more than one renewal is not guaranteed.
        assertThat(renewalsPerAccount(url))
                .allSatisfy((account, renewals) -> assertThat(renewals)
                        .as("allowance grants of " + account)
                        .isGreaterThanOrEqualTo(2));
        assertThat(periodsGrantedTwice(url)).isEmpty();
    }

    /** How many periods granted each account an allowance. */
    private static Map<String, Long> renewalsPerAccount(String url) {
        return query(url, "SELECT account_id, COUNT(*) FROM grants WHERE kind = 'allowance' GROUP BY account_id");
    }

    /** Periods with more than one allowance grant or allowance line: there must be none. */
    private static Map<String, Long> periodsGrantedTwice(String url) {
        Map<String, Long> twice = query(
                url,
                "SELECT account_id || ' ' || period_start, COUNT(*) FROM grants WHERE kind = 'allowance'"
                        + " GROUP BY account_id, period_start HAVING COUNT(*) > 1");
        twice.putAll(query(
                url,
                "SELECT g.id, COUNT(*) FROM grants g JOIN ledger_entries l ON l.grant_id = g.id"
                        + " AND l.kind = 'allowance' GROUP BY g.id HAVING COUNT(*) > 1"));
        return twice;
    }

    private static Map<String, Long> query(String url, String sql) {
        try (Database database = LedgerAudit.open(url)) {
            return database.read(connection -> {
                Map<String, Long> rows = new java.util.HashMap<>();
                try (PreparedStatement ps = connection.prepareStatement(sql);
                        ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.put(rs.getString(1), rs.getLong(2));
                    }
                }
                return rows;
            });
        }
    }
}
