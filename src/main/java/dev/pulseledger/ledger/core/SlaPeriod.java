package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Period;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One period of one account whose SLA was measured, credited or not: recorded once (the key is the account
 * and the period's start), which is what makes a credit happen exactly once per account and period.
 *
 * @param periodAllowance the allowance of the period, which the credit is a share of
 * @param grantId the credit's grant; empty when the period met its SLA
 */
public record SlaPeriod(
        String accountId,
        Period period,
        double uptime,
        long periodAllowance,
        int creditPercent,
        long amount,
        Optional<String> grantId,
        List<String> incidentIds,
        Instant measuredAt) {
    public SlaPeriod {
        incidentIds = List.copyOf(incidentIds);
    }

    /** The key that makes a period's measurement unique. */
    public Key key() {
        return new Key(accountId, period.start());
    }

    /** An account's period, by its start. */
    public record Key(String accountId, Instant periodStart) {}
}
