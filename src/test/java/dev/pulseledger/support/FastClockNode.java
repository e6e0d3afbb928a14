package dev.pulseledger.support;

import dev.pulseledger.Application;
import dev.pulseledger.ServeCommand;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;

/**
 * A node process whose clock runs {@code rate} times faster than real time, for crash tests that need
 * many period ends and expiries in seconds. Its time is a function of real time alone, so a node
 * restarted with the same arguments goes on where the killed one stopped.
 *
 * <p>Arguments: {@code <simulated start> <real start millis> <rate> <serve flags…>}.
 */
public final class FastClockNode {
    private FastClockNode() {}

    public static void main(String[] args) throws InterruptedException {
        Clock clock = new FastClock(Instant.parse(args[0]), Long.parseLong(args[1]), Long.parseLong(args[2]));
        Application.start(ServeCommand.parseConfig(Arrays.copyOfRange(args, 3, args.length)), System.out, clock);
        Thread.currentThread().join(); // until the test kills the process
    }

    /** Simulated time: {@code start + (real now - realStart) * rate}, in UTC. */
    public static final class FastClock extends Clock {
        private final Instant start;
        private final long realStartMillis;
        private final long rate;

        public FastClock(Instant start, long realStartMillis, long rate) {
            this.start = start;
            this.realStartMillis = realStartMillis;
            this.rate = rate;
        }

        @Override
        public Instant instant() {
            return start.plusMillis((System.currentTimeMillis() - realStartMillis) * rate);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("A fast clock is always UTC");
        }
    }
}
