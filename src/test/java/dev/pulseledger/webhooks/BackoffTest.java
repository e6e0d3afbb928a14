package dev.pulseledger.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class BackoffTest {
    private static final Duration BASE = Duration.ofSeconds(30);
    private static final Duration MAX = Duration.ofHours(1);

    /** Randomness pinned to one end of its range. */
    private static RandomGenerator always(boolean highest) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                throw new UnsupportedOperationException();
            }

            @Override
            public long nextLong(long bound) {
                return highest ? bound - 1 : 0;
            }
        };
    }

    @Test
    void eachRetryWaitsBetweenHalfAndAllOfADoublingDelay() {
        Backoff shortest = new Backoff(BASE, MAX, always(false));
        Backoff longest = new Backoff(BASE, MAX, always(true));
        for (int attempt = 1; attempt <= 7; attempt++) {
            Duration ceiling = BASE.multipliedBy(1L << (attempt - 1));
            assertThat(shortest.after(attempt)).isEqualTo(ceiling.dividedBy(2));
            assertThat(longest.after(attempt)).isEqualTo(ceiling);
        }
    }

    @Test
    void theDelayStopsGrowingAtTheCapHoweverManyAttempts() {
        Backoff longest = new Backoff(BASE, MAX, always(true));
        assertThat(longest.after(8)).isEqualTo(MAX);
        assertThat(longest.after(50)).isEqualTo(MAX);
        assertThat(new Backoff(BASE, MAX, always(false)).after(Integer.MAX_VALUE))
                .isEqualTo(MAX.dividedBy(2));
    }
}
