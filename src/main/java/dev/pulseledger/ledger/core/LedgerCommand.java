package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.Pools;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One queued change of token accounts, decided by {@link LedgerCore} in queue order within a batch;
 * {@code R} is the type of its outcome, which the writer hands back to its caller without a cast.
 */
public sealed interface LedgerCommand<R extends LedgerOutcome> {
    String accountId();

    /** Decides this command by its own rule. */
    R decideBy(CommandRules rules);

    /**
     * Spend, with its spending id chosen before the first attempt so that a retry after an
     * ambiguous commit can tell whether the first attempt landed.
     */
    record Spend(SpendRequest request, String spendingId) implements LedgerCommand<SpendResult> {
        @Override
        public SpendResult decideBy(CommandRules rules) {
            return rules.spend(this);
        }

        @Override
        public String accountId() {
            return request.accountId();
        }
    }

    /**
     * Revert {@code amount} tokens of one spending of the account, or all that is left of it when no
     * amount is given.
     */
    record Revert(String accountId, String spendingId, Optional<Long> amount, Optional<String> idempotencyKey)
            implements LedgerCommand<RevertResult> {
        @Override
        public RevertResult decideBy(CommandRules rules) {
            return rules.revert(this);
        }

        public Revert {
            if (amount.isPresent() && amount.get() < 1) {
                throw new IllegalArgumentException("A partial revert must be positive: " + amount.get());
            }
        }

        /** The whole revert: everything that is left. */
        public Revert(String accountId, String spendingId) {
            this(accountId, spendingId, Optional.empty(), Optional.empty());
        }
    }

    /**
     * Hold {@code amount} tokens for {@code lifetime}, under the reservation id chosen before the first
     * attempt so that a retry after an ambiguous commit can tell whether the first attempt landed;
     * {@code keyId} is the key that asks, whose budgets the hold must fit (CONTRACT §14).
     */
    record Reserve(
            String accountId,
            long amount,
            Duration lifetime,
            Optional<String> idempotencyKey,
            String reservationId,
            String pool,
            Optional<String> keyId)
            implements LedgerCommand<ReserveResult> {
        @Override
        public ReserveResult decideBy(CommandRules rules) {
            return rules.reserve(this);
        }

        public Reserve {
            if (amount < SpendRequest.MIN_AMOUNT || amount > SpendRequest.MAX_AMOUNT || !lifetime.isPositive()) {
                throw new IllegalArgumentException("A reservation needs a positive amount and lifetime");
            }
        }

        /** A hold by no key in the {@code default} pool. */
        public Reserve(
                String accountId,
                long amount,
                Duration lifetime,
                Optional<String> idempotencyKey,
                String reservationId) {
            this(accountId, amount, lifetime, idempotencyKey, reservationId, Pools.DEFAULT, Optional.empty());
        }
    }

    /**
     * Settle a reservation for {@code amount} (all it holds when empty); {@code spendingId} names the
     * spending the settle makes.
     */
    record Settle(String accountId, String reservationId, Optional<Long> amount, String spendingId)
            implements LedgerCommand<SettleResult> {
        @Override
        public SettleResult decideBy(CommandRules rules) {
            return rules.settle(this);
        }
    }

    /** Return everything a reservation holds. */
    record Release(String accountId, String reservationId) implements LedgerCommand<ReleaseResult> {
        @Override
        public ReleaseResult decideBy(CommandRules rules) {
            return rules.release(this);
        }
    }

    /**
     * An operator grants tokens in {@code pool} (made if the account lacks it), which expire at
     * {@code expiresAt} if given; {@code reason} goes on the ledger line.
     */
    record Credit(String accountId, long amount, String reason, Optional<Instant> expiresAt, String pool)
            implements LedgerCommand<CreditResult> {
        @Override
        public CreditResult decideBy(CommandRules rules) {
            return rules.credit(this);
        }

        public Credit {
            if (amount <= 0) {
                throw new IllegalArgumentException("A credit must be positive: " + amount);
            }
        }

        /** A credit to the {@code default} pool. */
        public Credit(String accountId, long amount, String reason, Optional<Instant> expiresAt) {
            this(accountId, amount, reason, expiresAt, Pools.DEFAULT);
        }
    }

    /** Move the account to another plan: a new period starts at once (CONTRACT §7). */
    record ChangePlan(String accountId, String planId) implements LedgerCommand<PlanChangeResult> {
        @Override
        public PlanChangeResult decideBy(CommandRules rules) {
            return rules.changePlan(this);
        }
    }

    /**
     * Move the account to another plan within its period (CONTRACT §13): {@code NOW} prorates the new plan's
     * allowance over what is left of the period, {@code PERIOD_END} waits for the renewal at its end.
     */
    record ChangePlanInPeriod(String accountId, String planId, PlanChangeTiming when)
            implements LedgerCommand<InPeriodChangeResult> {
        @Override
        public InPeriodChangeResult decideBy(CommandRules rules) {
            return rules.changePlanInPeriod(this);
        }
    }

    /** Drop the plan change that waits for the account's period to end. */
    record CancelPlanChange(String accountId) implements LedgerCommand<CancelPlanChangeResult> {
        @Override
        public CancelPlanChangeResult decideBy(CommandRules rules) {
            return rules.cancelPlanChange(this);
        }
    }

    /** Take back what is left of one credit grant of the account, once (CONTRACT §13). */
    record RevokeGrant(String accountId, String grantId) implements LedgerCommand<RevokeResult> {
        @Override
        public RevokeResult decideBy(CommandRules rules) {
            return rules.revokeGrant(this);
        }
    }

    /** Record one measured period of the account's SLA, crediting it when it breached (CONTRACT §13). */
    record SlaCredit(String accountId, SlaMeasurement measurement) implements LedgerCommand<SlaCreditResult> {
        @Override
        public SlaCreditResult decideBy(CommandRules rules) {
            return rules.slaCredit(this);
        }
    }

    /** Bring the account up to date: renew its period and expire its grants when they are due. */
    record Touch(String accountId) implements LedgerCommand<TouchResult> {
        @Override
        public TouchResult decideBy(CommandRules rules) {
            return rules.touch(this);
        }
    }

    /** Create an account on an existing plan, with {@code balance} as its opening credit. */
    record Open(Account account) implements LedgerCommand<OpenResult> {
        @Override
        public OpenResult decideBy(CommandRules rules) {
            return rules.open(this);
        }

        @Override
        public String accountId() {
            return account.id();
        }
    }
}
