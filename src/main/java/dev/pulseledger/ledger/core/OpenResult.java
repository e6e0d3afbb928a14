package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Account;

/** What became of opening an account. */
public sealed interface OpenResult extends LedgerOutcome {
    record Opened(Account account) implements OpenResult {}

    /** No plan has the account's plan id; nothing was created. */
    record UnknownPlan() implements OpenResult, Refusal {}
}
