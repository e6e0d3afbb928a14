package dev.pulseledger.ledger.core;

/** What became of measuring one ended period against the account's SLA. */
public sealed interface SlaCreditResult extends LedgerOutcome {
    /** The period breached a tier: {@code amount} tokens were granted as {@code grantId}. */
    record Credited(String grantId, long amount, int creditPercent) implements SlaCreditResult {}

    /** The period met every tier, or breached one whose credit rounds down to nothing: recorded, no credit. */
    record NotBreached() implements SlaCreditResult {}

    /** The period was measured before (on this node or another): nothing changes. */
    record AlreadyMeasured() implements SlaCreditResult {}

    record AccountNotFound() implements SlaCreditResult {}
}
