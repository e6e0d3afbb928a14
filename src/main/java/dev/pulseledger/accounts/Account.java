package dev.pulseledger.accounts;

import java.time.Instant;
import java.util.Optional;

/**
 * A caller's token account: the plan it is on, its balance in whole tokens, its current period (empty
 * before the first), when the ledger next has a renewal or an expiry to do for it, and the plan change that
 * waits for its period's end (CONTRACT §13), if any.
 */
public record Account(
        String id,
        String name,
        String planId,
        long balance,
        AccountStatus status,
        Instant createdAt,
        Optional<Period> currentPeriod,
        Instant dueAt,
        Optional<PendingPlanChange> pendingChange) {

    /** An account about to be opened: it has no period yet. */
    public Account(String id, String name, String planId, long balance, AccountStatus status, Instant createdAt) {
        this(id, name, planId, balance, status, createdAt, Optional.empty(), createdAt, Optional.empty());
    }
}
