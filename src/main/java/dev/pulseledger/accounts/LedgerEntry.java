package dev.pulseledger.accounts;

import java.time.Instant;
import java.util.Optional;

/**
 * One balance change, append-only. {@code amount} is signed: credits and reverts add, spends
 * subtract, so the sum of an account's entries is its balance (CONTRACT §6.2).
 */
public record LedgerEntry(
        long sequence,
        String accountId,
        String kind,
        long amount,
        long balanceAfter,
        Optional<String> spendingId,
        Optional<String> reason,
        Instant createdAt) {}
