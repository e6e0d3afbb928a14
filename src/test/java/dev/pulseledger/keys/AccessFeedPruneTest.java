package dev.pulseledger.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.store.Database;
import dev.pulseledger.support.LogCapture;
import dev.pulseledger.support.TestRows;
import dev.pulseledger.support.TestStore;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A feed whose prune of the access change log fails says so at WARN, with no stack trace, and keeps reading. */
class AccessFeedPruneTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aFailedPruneIsAWarningNamingOnlyTheExceptionAndTheFeedReadsOn(TestStore store) {
        try (Database reads = TestRows.open(store);
                LogCapture logs = new LogCapture()) {
            Database closedWrites = TestRows.open(store);
            closedWrites.close();
            AccessChangeLog log = new AccessChangeLog(closedWrites, reads, Clock.systemUTC());
            try (AccessFeed feed = AccessFeed.from(log, Duration.ofMillis(50)).start()) {
                // The first read prunes after it finishes; a second read starts only after that prune.
                assertThat(feed.catchUp(WAIT)).isTrue();
                assertThat(feed.catchUp(WAIT))
                        .as("the feed reads on after the failed prune")
                        .isTrue();
            }

            assertThat(logs.warnings())
                    .filteredOn(line -> line.contains("Pruning old access changes failed"))
                    .singleElement()
                    .satisfies(line -> assertThat(line)
                            .containsPattern("retries: [\\w.$]+Exception: ")
                            .doesNotContain("\n\tat "));
        }
    }
}
