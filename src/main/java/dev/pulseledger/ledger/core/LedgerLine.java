package dev.pulseledger.ledger.core;

import java.util.Optional;

/**
 * One balance change as the ledger records it: {@code amount} is signed, {@code balanceAfter} is the
 * balance of the account's {@code pool} right after it; {@code grantId} names the grant of a credit, allowance or expiry.
 */
public record LedgerLine(
        String accountId,
        String pool,
        LedgerKind kind,
        long amount,
        long balanceAfter,
        Optional<String> spendingId,
        Optional<String> grantId,
        Optional<String> reason) {

    public LedgerLine {
        if (balanceAfter < 0) {
            throw new IllegalStateException("A balance would go negative: " + accountId);
        }
    }
}
