package dev.pulseledger.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.ConsoleClient;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A console session ends after 30 idle minutes, and after 12 hours however busy; the clock is moved, not waited for. */
class ConsoleSessionExpiryTest {
    private static final Duration JUST_UNDER_IDLE = ConsoleSessions.IDLE_TIMEOUT.minusMinutes(1);

    @Test
    void aSessionLivesWhileUsedAndEndsAfterThirtyIdleMinutes() {
        TestClock clock = new TestClock(Instant.parse("2026-11-23T08:00:00Z"));
        try (TestNode node = TestNode.start(TestNode.config(TestStore.SQLITE.newDatabaseUrl()), clock)) {
            ConsoleClient console = new ConsoleClient(node.baseUrl());
            assertThat(console.signIn(TestNode.ADMIN_KEY).statusCode()).isEqualTo(303);

            clock.advance(JUST_UNDER_IDLE);
            assertThat(console.get("/console").statusCode()).isEqualTo(200);
            clock.advance(JUST_UNDER_IDLE);
            assertThat(console.get("/console").statusCode())
                    .as("used a moment ago")
                    .isEqualTo(200);

            clock.advance(ConsoleSessions.IDLE_TIMEOUT);
            assertThat(console.get("/console").statusCode()).as("idle too long").isEqualTo(303);
            clock.advance(Duration.ofMinutes(-ConsoleSessions.IDLE_TIMEOUT.toMinutes()));
            assertThat(console.get("/console").statusCode())
                    .as("an expired session is deleted, not merely hidden")
                    .isEqualTo(303);
        }
    }

    @Test
    void aBusySessionStillEndsTwelveHoursAfterSignIn() {
        TestClock clock = new TestClock(Instant.parse("2026-11-23T08:00:00Z"));
        try (TestNode node = TestNode.start(TestNode.config(TestStore.SQLITE.newDatabaseUrl()), clock)) {
            ConsoleClient console = new ConsoleClient(node.baseUrl());
            assertThat(console.signIn(TestNode.ADMIN_KEY).statusCode()).isEqualTo(303);
            Instant end = clock.instant().plus(ConsoleSessions.MAX_AGE);
            while (clock.instant().plus(JUST_UNDER_IDLE).isBefore(end)) {
                clock.advance(JUST_UNDER_IDLE);
                assertThat(console.get("/console").statusCode()).isEqualTo(200);
            }
            clock.set(end);
            assertThat(console.get("/console").statusCode()).isEqualTo(303);
        }
    }
}
