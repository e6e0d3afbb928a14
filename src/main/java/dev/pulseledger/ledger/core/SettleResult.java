package dev.pulseledger.ledger.core;

/** What became of a request to settle a reservation. */
public sealed interface SettleResult extends LedgerOutcome {
    /** Settled, now or by an earlier identical request; the reservation carries the balance after. */
    record Settled(Reservation reservation) implements SettleResult {}

    /** No reservation with that id belongs to the account. */
    record NotFound() implements SettleResult, Refusal {}

    /** It was released or expired: nothing is held to settle. */
    record NotHeld(Reservation reservation) implements SettleResult, Refusal {}

    /** It was settled before, for another amount. */
    record AlreadySettled(Reservation reservation) implements SettleResult, Refusal {}

    /** The amount is more than the reservation holds; nothing changed. */
    record AmountExceedsHeld(long held) implements SettleResult, Refusal {}
}
