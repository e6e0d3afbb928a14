package dev.pulseledger.accounts;

/** What a plan grants in one named pool each period, and how much of it may roll over (CONTRACT §14). */
public record PoolAllowance(long allowance, long rollover) {
    public PoolAllowance {
        if (allowance < 0 || allowance > Plan.MAX_ALLOWANCE || rollover < 0 || rollover > Plan.MAX_ALLOWANCE) {
            throw new IllegalArgumentException("A pool's allowance and rollover are 0 to " + Plan.MAX_ALLOWANCE);
        }
    }
}
