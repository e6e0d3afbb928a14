package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.PlanPeriod;
import dev.pulseledger.accounts.PoolAllowance;
import java.util.Map;

/**
 * What the ledger needs of a plan: its allowance per period and how much of it rolls over (the
 * {@code default} pool's), and the same for each of its named {@code pools}.
 */
public record PlanTerms(
        String planId, long allowance, PlanPeriod period, long rollover, Map<String, PoolAllowance> pools) {
    public PlanTerms {
        pools = Map.copyOf(pools);
    }

    /** A plan that grants only in the {@code default} pool. */
    public PlanTerms(String planId, long allowance, PlanPeriod period, long rollover) {
        this(planId, allowance, period, rollover, Map.of());
    }
}
