package dev.pulseledger.ledger.core;

import java.util.Arrays;
import java.util.Optional;

/** When a plan change within a period takes effect (CONTRACT §13), with its name on the wire. */
public enum PlanChangeTiming {
    NOW("now"),
    PERIOD_END("period_end");

    /** How the allowance lines of a plan change {@code now} begin (what {@code verify} looks for). */
    public static final String REASON = "plan change";

    private final String wire;

    PlanChangeTiming(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<PlanChangeTiming> fromWire(String text) {
        return Arrays.stream(values()).filter(t -> t.wire.equals(text)).findFirst();
    }
}
