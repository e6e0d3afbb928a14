package dev.pulseledger.ledger.core;

import java.time.Instant;

/** What became of revoking a credit grant (CONTRACT §13). */
public sealed interface RevokeResult extends LedgerOutcome {
    /** What was left of the grant ({@code amount}, possibly 0) left the balance at {@code at}. */
    record Revoked(String grantId, long amount, long balance, Instant at) implements RevokeResult {}

    /** The grant was revoked before: nothing changes. */
    record AlreadyRevoked() implements RevokeResult, Refusal {}

    /** The account has no credit grant with that id (an allowance is not a credit). */
    record GrantNotFound() implements RevokeResult, Refusal {}

    record AccountNotFound() implements RevokeResult, Refusal {}
}
