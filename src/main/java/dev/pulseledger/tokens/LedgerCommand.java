package dev.pulseledger.tokens;

/** One queued write on token accounts, applied in order within a batch. */
public sealed interface LedgerCommand {
    String accountId();

    /**
     * Spend, with its spending id chosen before the first attempt so that a retry after an
     * ambiguous commit can tell whether the first attempt landed.
     */
    record Spend(SpendRequest request, String spendingId) implements LedgerCommand {
        @Override
        public String accountId() {
            return request.accountId();
        }
    }

    /** Revert one spending of the account. */
    record Revert(String accountId, String spendingId) implements LedgerCommand {}
}
