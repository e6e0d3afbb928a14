package dev.pulseledger.ledger.write;

import dev.pulseledger.ledger.core.ChangeSet;
import dev.pulseledger.ledger.core.Reservation;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts what committed ledger rounds did to reservations (CONTRACT §8): holds made, and reservations
 * settled, released and expired, whichever road ended them (a caller, or the sweep at their expiry).
 */
final class ReservationMetrics {
    private final Counter holds;
    private final Counter settles;
    private final Counter releases;
    private final Counter expiries;

    ReservationMetrics(MeterRegistry metrics) {
        this.holds = Counter.builder("pulseledger.reservation.holds")
                .description("Reservations made: tokens held")
                .register(metrics);
        this.settles = Counter.builder("pulseledger.reservation.settles")
                .description("Reservations settled")
                .register(metrics);
        this.releases = Counter.builder("pulseledger.reservation.releases")
                .description("Reservations released by their caller")
                .register(metrics);
        this.expiries = Counter.builder("pulseledger.reservation.expiries")
                .description("Reservations released automatically at their expiry")
                .register(metrics);
    }

    void record(ChangeSet changes) {
        holds.increment(changes.newReservations().size());
        changes.newReservations().forEach(this::ended);
        changes.endedReservations().forEach(this::ended);
    }

    private void ended(Reservation reservation) {
        switch (reservation.status()) {
            case HELD -> {}
            case SETTLED -> settles.increment();
            case RELEASED -> releases.increment();
            case EXPIRED -> expiries.increment();
        }
    }
}
