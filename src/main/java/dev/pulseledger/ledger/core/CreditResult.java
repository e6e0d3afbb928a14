package dev.pulseledger.ledger.core;

import java.time.Instant;

/** What became of an operator's credit. */
public sealed interface CreditResult extends LedgerOutcome {
    /** The tokens were granted at {@code at}; {@code balance} is the account's balance right after. */
    record Credited(long balance, Instant at) implements CreditResult {}

    /** No account has that id. */
    record AccountNotFound() implements CreditResult, Refusal {}

    /** The credit's expiry is not after the moment it would be granted. */
    record ExpiryNotInFuture() implements CreditResult, Refusal {}

    /** The credit names a new pool, and the account has the most pools it may have already. */
    record PoolLimitReached(int limit) implements CreditResult, Refusal {}

    /** The credit would take the balance above {@link LedgerCore#MAX_BALANCE}. */
    record BalanceLimitReached() implements CreditResult, Refusal {}
}
