package dev.pulseledger.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** The real time, plus whatever the test has skipped ahead: for tests that need real time to pass and a jump. */
public final class SkippingClock extends Clock {
    private final AtomicReference<Duration> skipped = new AtomicReference<>(Duration.ZERO);

    public void skip(Duration duration) {
        skipped.updateAndGet(total -> total.plus(duration));
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(skipped.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("A skipping clock is always UTC");
    }
}
