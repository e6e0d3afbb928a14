package dev.pulseledger.tokens;

/**
 * The write path of token accounts: spends and reverts. Every result is returned only after it is
 * durably committed.
 */
public interface SpendLedger {
    SpendResult spend(SpendRequest request);

    RevertResult revert(String accountId, String spendingId);
}
