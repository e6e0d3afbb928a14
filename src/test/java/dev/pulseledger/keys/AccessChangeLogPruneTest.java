package dev.pulseledger.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.store.Database;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestRows;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link AccessChangeLog#prune}: changes older than the retention go, and the log's sequence never restarts. */
class AccessChangeLogPruneTest {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private final TestClock clock = new TestClock(START);

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void deletesChangesOlderThanTheRetentionAndKeepsTheRest(TestStore store) {
        try (Database database = TestRows.open(store)) {
            AccessChangeLog log = new AccessChangeLog(database, database, clock);
            append(database, log, "key_old");
            clock.advance(Duration.ofMillis(1));
            append(database, log, "key_at_retention");
            clock.advance(AccessChangeLog.RETENTION);
            append(database, log, "key_now");

            assertThat(log.prune()).isEqualTo(1);
            assertThat(subjects(log, 0)).containsExactly("key_at_retention", "key_now");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aFeedFollowsOnAfterEveryChangeWasPruned(TestStore store) {
        try (Database database = TestRows.open(store)) {
            AccessChangeLog log = new AccessChangeLog(database, database, clock);
            append(database, log, "key_1");
            append(database, log, "key_2");
            long cursor = log.lastSequence();
            clock.advance(AccessChangeLog.RETENTION.plusMillis(1));

            assertThat(log.prune()).isEqualTo(2);
            assertThat(subjects(log, 0)).isEmpty();
            append(database, log, "key_3");
            assertThat(subjects(log, cursor))
                    .as("a node whose cursor is past the pruned changes")
                    .containsExactly("key_3");
        }
    }

    private static void append(Database database, AccessChangeLog log, String subject) {
        database.runInTransaction(connection -> log.append(connection, AccessChange.Kind.KEY, subject));
    }

    private static List<String> subjects(AccessChangeLog log, long afterSeq) {
        return log.after(afterSeq).stream().map(AccessChange::subject).toList();
    }
}
