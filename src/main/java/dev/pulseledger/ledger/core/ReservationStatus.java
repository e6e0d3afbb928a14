package dev.pulseledger.ledger.core;

import java.util.Arrays;
import java.util.Optional;

/** Where a reservation stands: held until it ends exactly once, by a settle, a release or its expiry. */
public enum ReservationStatus {
    HELD("held"),
    SETTLED("settled"),
    RELEASED("released"),
    EXPIRED("expired");

    private final String wire;

    ReservationStatus(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<ReservationStatus> fromWire(String text) {
        return Arrays.stream(values()).filter(s -> s.wire.equals(text)).findFirst();
    }
}
