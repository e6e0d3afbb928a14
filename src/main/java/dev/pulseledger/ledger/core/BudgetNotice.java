package dev.pulseledger.ledger.core;

import java.time.Instant;

/** A key budget's window reached a level (80 % or 100 %) and raised its event; once per level and window. */
public record BudgetNotice(String keyId, String pool, String period, Instant windowStart, Level level) {
    /** The two levels a window can reach. */
    public enum Level {
        WARNING("warning"),
        EXHAUSTED("exhausted");

        private final String wire;

        Level(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }
}
