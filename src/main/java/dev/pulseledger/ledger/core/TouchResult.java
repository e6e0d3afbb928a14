package dev.pulseledger.ledger.core;

/** What became of bringing an account up to date. */
public sealed interface TouchResult extends LedgerOutcome {
    record Touched(long balance) implements TouchResult {}

    record AccountNotFound() implements TouchResult {}
}
