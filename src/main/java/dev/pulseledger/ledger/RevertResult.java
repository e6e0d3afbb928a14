package dev.pulseledger.ledger;

/** What became of a revert request. */
public sealed interface RevertResult extends LedgerOutcome {
    /** The spending is reverted (now or earlier); {@code balance} is the account's balance after. */
    record Reverted(Spending spending, long balance) implements RevertResult {}

    /** No spending with that id belongs to the account. */
    record NotFound() implements RevertResult {}
}
