package dev.pulseledger.tokens;

/** The outcome of one {@link LedgerCommand}: a spend result or a revert result. */
public sealed interface LedgerOutcome permits SpendResult, RevertResult {}
