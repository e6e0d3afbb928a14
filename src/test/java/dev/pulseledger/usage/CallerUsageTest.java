package dev.pulseledger.usage;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CONTRACT §11: usage per hour, day and month, and the balance at an instant, both equal to a
 * brute-force reading of the account's ledger after a random history of spends and reverts that
 * crosses hour, day and month boundaries on a clock the test moves.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(TestStore.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CallerUsageTest {
    private static final Instant START = Instant.parse("2028-01-29T21:30:00Z");
    private static final int STEPS = 80;

    @Parameter
    TestStore store;

    private final TestClock clock = new TestClock(START);
    private TestNode node;
    private Fixtures fixtures;
    private Fixtures.Caller caller;
    private Instant end;

    @BeforeParameterizedClassInvocation(injectArguments = false)
    void startNodeAndMakeHistory() {
        clock.set(START);
        node = TestNode.start(TestNode.config(store.newDatabaseUrl()), clock);
        fixtures = new Fixtures(node);
        caller = fixtures.caller(1_000_000);
        Fixtures.Caller neighbour = fixtures.caller(1_000_000);
        Random random = new Random(20281129L);
        List<String> active = new ArrayList<>();
        for (int step = 0; step < STEPS; step++) {
            moveClock(random);
            if (!active.isEmpty() && random.nextInt(4) == 0) {
                String spendingId = active.remove(random.nextInt(active.size()));
                Reply reverted = api(caller).post("/api/tokens/spendings/" + spendingId + "/revert");
                assertThat(reverted.status()).as(reverted.toString()).isEqualTo(200);
            } else {
                Reply spent = api(caller).post("/api/tokens/spend/" + (1 + random.nextInt(500)));
                assertThat(spent.status()).as(spent.toString()).isEqualTo(201);
                active.add(spent.json().path("spendingId").asText());
            }
            // Another account spends at the same instants: none of it may show in the caller's figures.
            assertThat(api(neighbour).post("/api/tokens/spend/7").status()).isEqualTo(201);
        }
        end = clock.instant();
    }

    @AfterParameterizedClassInvocation
    void stopNode() {
        node.close();
    }

    /** Moves time by up to a day and a half, and now and then exactly onto a midnight. */
    private void moveClock(Random random) {
        if (random.nextInt(6) == 0) {
            clock.set(clock.instant().truncatedTo(ChronoUnit.DAYS).plus(Duration.ofDays(1)));
        } else if (random.nextInt(5) > 0) {
            clock.advance(Duration.ofMinutes(random.nextInt(36 * 60)));
        }
    }

    @Test
    void hourlyDailyAndMonthlyBucketsEqualTheLedgersSums() {
        List<Line> ledger = ledger();
        assertThat(ledger).extracting(Line::kind).contains("spend", "revert");
        Instant firstDay = START.truncatedTo(ChronoUnit.DAYS);
        assertUsageMatches(
                ledger,
                "hour",
                firstDay.plus(Duration.ofDays(2)),
                firstDay.plus(Duration.ofDays(6)),
                t -> t.plusHours(1));
        assertUsageMatches(ledger, "day", firstDay, end.plus(Duration.ofDays(1)), t -> t.plusDays(1));
        assertUsageMatches(
                ledger,
                "month",
                Instant.parse("2028-01-01T00:00:00Z"),
                Instant.parse("2028-05-01T00:00:00Z"),
                t -> t.plusMonths(1));
    }

    @Test
    void aWindowThatDoesNotStartOnABucketCoversItsWholeBuckets() {
        Reply reply = api(caller)
                .get("/api/tokens/usage?granularity=day&from=2028-02-03T17:45:00Z" + "&to=2028-02-05T00:00:01%2B01:00");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().path("from").asText()).isEqualTo("2028-02-03T00:00:00Z");
        assertThat(reply.json().path("to").asText()).isEqualTo("2028-02-05T00:00:00Z");
        assertThat(reply.json().path("buckets")).hasSize(2);
    }

    @Test
    void theDefaultIsTheCurrentMonthByDay() {
        Reply reply = api(caller).get("/api/tokens/usage");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        ZonedDateTime now = clock.instant().atZone(ZoneOffset.UTC);
        Instant monthStart = now.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS).toInstant();
        assertThat(reply.json().path("granularity").asText()).isEqualTo("day");
        assertThat(reply.json().path("from").asText()).isEqualTo(monthStart.toString());
        Instant today = now.truncatedTo(ChronoUnit.DAYS).toInstant();
        Instant to = today.equals(now.toInstant()) ? today : today.plus(Duration.ofDays(1));
        assertThat(reply.json().path("to").asText()).isEqualTo(to.toString());
        assertThat(reply.json().path("buckets"))
                .hasSize((int) Duration.between(monthStart, to).toDays());
    }

    @Test
    void theBalanceAtAnInstantEqualsTheLedgerReplayedToIt() {
        List<Line> ledger = ledger();
        Random random = new Random(50);
        List<Instant> instants = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            long span = end.toEpochMilli() - START.toEpochMilli();
            instants.add(
                    START.minus(Duration.ofHours(1)).plusMillis((long) (random.nextDouble() * (span + 7_200_000))));
        }
        for (int i = 0; i < 10; i++) {
            instants.add(ledger.get(random.nextInt(ledger.size())).at());
        }
        for (Instant at : instants) {
            long expected = 0;
            for (Line line : ledger) {
                if (!line.at().isAfter(at)) {
                    expected = line.balanceAfter();
                }
            }
            Reply reply = api(caller).get("/api/tokens/balance?at=" + at);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            assertThat(reply.json().path("balance").asLong())
                    .as("balance at " + at)
                    .isEqualTo(expected);
            assertThat(reply.json().path("at").asText()).isEqualTo(at.toString());
        }
    }

    @Test
    void badWindowsAndInstantsAre400sNamingTheParameter() {
        assertBadParameter(api(caller).get("/api/tokens/usage?granularity=week"), "invalid_granularity", "granularity");
        assertBadParameter(api(caller).get("/api/tokens/usage?from=yesterday"), "invalid_from", "from");
        assertBadParameter(api(caller).get("/api/tokens/usage?from=1999-12-31T00:00:00Z"), "invalid_from", "from");
        assertBadParameter(api(caller).get("/api/tokens/usage?to=2028-13-01T00:00:00Z"), "invalid_to", "to");
        assertBadParameter(
                api(caller).get("/api/tokens/usage?from=2028-02-02T00:00:00Z&to=2028-02-01T00:00:00Z"),
                "invalid_to",
                "to");
        assertBadParameter(
                api(caller).get("/api/tokens/usage?granularity=hour&from=2028-01-01T00:00:00Z&to=2028-03-01T00:00:00Z"),
                "too_many_buckets",
                "granularity");
        assertBadParameter(
                api(caller).get("/api/tokens/balance?at=" + clock.instant().plusSeconds(1)), "invalid_at", "at");
        assertBadParameter(api(caller).get("/api/tokens/balance?at=now"), "invalid_at", "at");
        assertThat(api(caller)
                        .get("/api/tokens/usage?granularity=month&from=2028-01-01T00:00:00Z"
                                + "&to=2111-04-01T00:00:00Z")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void usageAndPastBalancesNeedTheCallersKey() {
        assertThat(node.anonymous().get("/api/tokens/usage").status()).isEqualTo(401);
        assertThat(node.admin().get("/api/tokens/usage").status()).isEqualTo(403);
        assertThat(node.anonymous().get("/api/tokens/balance?at=" + START).status())
                .isEqualTo(401);
    }

    private void assertUsageMatches(
            List<Line> ledger, String granularity, Instant from, Instant to, UnaryOperator<ZonedDateTime> next) {
        Reply reply = api(caller).get("/api/tokens/usage?granularity=" + granularity + "&from=" + from + "&to=" + to);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        JsonNode buckets = reply.json().path("buckets");
        long totalSpent = 0;
        long totalReverted = 0;
        long totalSpendings = 0;
        int index = 0;
        for (ZonedDateTime start = from.atZone(ZoneOffset.UTC);
                start.toInstant().isBefore(to);
                start = next.apply(start)) {
            Instant bucketStart = start.toInstant();
            Instant bucketEnd = next.apply(start).toInstant();
            long spent = 0;
            long reverted = 0;
            Set<String> spendings = new HashSet<>();
            for (Line line : ledger) {
                if (line.at().isBefore(bucketStart) || !line.at().isBefore(bucketEnd)) {
                    continue;
                }
                if (line.kind().equals("spend")) {
                    spent -= line.amount();
                    spendings.add(line.spendingId());
                } else if (line.kind().equals("revert")) {
                    reverted += line.amount();
                }
            }
            JsonNode bucket = buckets.get(index++);
            assertThat(bucket.path("start").asText()).isEqualTo(bucketStart.toString());
            assertThat(bucket.path("spent").asLong())
                    .as(granularity + " " + bucketStart)
                    .isEqualTo(spent);
            assertThat(bucket.path("reverted").asLong())
                    .as(granularity + " " + bucketStart)
                    .isEqualTo(reverted);
            assertThat(bucket.path("spendings").asLong())
                    .as(granularity + " " + bucketStart)
                    .isEqualTo(spendings.size());
            totalSpent += spent;
            totalReverted += reverted;
            totalSpendings += spendings.size();
        }
        assertThat(buckets).hasSize(index);
        assertThat(reply.json().path("total").path("spent").asLong()).isEqualTo(totalSpent);
        assertThat(reply.json().path("total").path("reverted").asLong()).isEqualTo(totalReverted);
        assertThat(reply.json().path("total").path("spendings").asLong()).isEqualTo(totalSpendings);
        assertThat(totalSpent).as("the window holds spends").isPositive();
    }

    private static void assertBadParameter(Reply reply, String code, String parameter) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.code()).isEqualTo(code);
        assertThat(reply.json().path("detail").asText()).contains("'" + parameter + "'");
    }

    /** Every line of the caller's ledger, oldest first, read through the operator API. */
    private List<Line> ledger() {
        List<Line> newestFirst = new ArrayList<>();
        String cursor = null;
        do {
            Reply page = node.admin()
                    .get("/admin/accounts/" + caller.accountId() + "/ledger?limit=100"
                            + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.status()).as(page.toString()).isEqualTo(200);
            for (JsonNode line : page.json().path("data")) {
                newestFirst.add(new Line(
                        line.path("kind").asText(),
                        line.path("amount").asLong(),
                        line.path("balanceAfter").asLong(),
                        line.path("spendingId").asText(null),
                        Instant.parse(line.path("createdAt").asText())));
            }
            cursor = page.json().path("nextCursor").asText(null);
        } while (cursor != null);
        return newestFirst.reversed();
    }

    private Api api(Fixtures.Caller who) {
        return node.caller(who.key());
    }

    private record Line(String kind, long amount, long balanceAfter, String spendingId, Instant at) {}
}
