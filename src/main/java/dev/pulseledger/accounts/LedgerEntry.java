package dev.pulseledger.accounts;

import java.time.Instant;
import java.util.Optional;

/**
 * One balance change, append-only. {@code amount} is signed: credits, allowances and reverts add,
 * spends and expiries subtract, so the sum of an account's entries is its balance (CONTRACT §6.2, §7).
 * {@code grantId} names the grant of a credit, allowance or expiry.
 */
public record LedgerEntry(
        long sequence,
        String accountId,
        String kind,
        long amount,
        long balanceAfter,
        Optional<String> spendingId,
        Optional<String> grantId,
        Optional<String> reason,
        Instant createdAt) {}
