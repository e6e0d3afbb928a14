package dev.pulseledger.ledger.core;

/** What became of a request to release a reservation. */
public sealed interface ReleaseResult extends LedgerOutcome {
    /** Released, now or earlier; the reservation carries the balance after. */
    record Released(Reservation reservation) implements ReleaseResult {}

    /** No reservation with that id belongs to the account. */
    record NotFound() implements ReleaseResult, Refusal {}

    /** It was settled or expired, so there is nothing left to release. */
    record NotHeld(Reservation reservation) implements ReleaseResult, Refusal {}
}
