package dev.pulseledger.status.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.StatusSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The one uptime function of CONTRACT §9 and §13 against a brute-force sum, second by second, over random
 * status histories and random windows (an SLA period anywhere, before, across or after the service's creation).
 */
class UptimePropertyTest {
    private static final Instant EPOCH = Instant.parse("2026-11-01T00:00:00Z");
    private static final ServiceStatus[] STATUSES = ServiceStatus.values();

    @Test
    void theUptimeOfAnyWindowIsTheBruteForceShareOfUpSeconds() {
        for (long run = 1; run <= 400; run++) {
            long seed = run;
            Random random = new Random(seed);
            History history = history(random);
            long from = random.nextInt(3000);
            long to = from + 1 + random.nextInt(3000);
            // Like the history's read, the calculator sees only the changes at or after the window's start.
            List<StatusChange> fromWindow = history.changes.stream()
                    .filter(c -> !c.at().isBefore(at(from)))
                    .toList();

            Optional<Double> measured =
                    UptimeCalculator.uptime(history.createdAt, history.current, fromWindow, at(from), at(to));

            Optional<Double> expected = bruteForce(history, from, to);
            assertThat(measured.isPresent()).as("seed %d", seed).isEqualTo(expected.isPresent());
            expected.ifPresent(uptime ->
                    assertThat(measured.orElseThrow()).as("seed %d", seed).isCloseTo(uptime, within(1e-9)));
        }
    }

    private record History(Instant createdAt, ServiceStatus current, List<StatusChange> changes) {}

    /** A service created at a random second, with up to 30 changes at random later seconds (some at once). */
    private static History history(Random random) {
        long created = random.nextInt(4000);
        ServiceStatus status = STATUSES[random.nextInt(STATUSES.length)];
        List<StatusChange> changes = new ArrayList<>();
        changes.add(new StatusChange("api", Optional.empty(), status, StatusSource.OPERATOR, at(created)));
        long second = created;
        for (int i = random.nextInt(30); i > 0; i--) {
            second += random.nextInt(400);
            ServiceStatus next = STATUSES[random.nextInt(STATUSES.length)];
            changes.add(new StatusChange("api", Optional.of(status), next, StatusSource.OPERATOR, at(second)));
            status = next;
        }
        return new History(at(created), status, changes);
    }

    /** Each second of the window at the status the last change at or before it set; none before creation. */
    private static Optional<Double> bruteForce(History history, long from, long to) {
        double observed = 0;
        double down = 0;
        for (long second = from; second < to; second++) {
            Instant instant = at(second);
            if (instant.isBefore(history.createdAt)) {
                continue;
            }
            ServiceStatus status = null;
            for (StatusChange change : history.changes) {
                if (!change.at().isAfter(instant)) {
                    status = change.to();
                }
            }
            observed++;
            down += switch (status) {
                case MAJOR_OUTAGE -> 1.0;
                case PARTIAL_OUTAGE -> 0.3;
                default -> 0.0;
            };
        }
        return observed == 0 ? Optional.empty() : Optional.of(1 - down / observed);
    }

    private static Instant at(long second) {
        return EPOCH.plusSeconds(second);
    }
}
