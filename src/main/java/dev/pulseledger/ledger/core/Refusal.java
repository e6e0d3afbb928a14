package dev.pulseledger.ledger.core;

/**
 * An outcome in which a ledger rule refused the command and nothing changed; {@code ledger/web}'s one map
 * turns each into the problem the caller is answered with, so a new refusal that is not mapped does not compile.
 */
public sealed interface Refusal
        permits SpendResult.InsufficientBalance,
                SpendResult.PoolNotFound,
                SpendResult.KeyBudgetExceeded,
                SpendResult.IdempotencyKeyReused,
                SpendResult.IdempotencyKeyInUse,
                ReserveResult.InsufficientBalance,
                ReserveResult.PoolNotFound,
                ReserveResult.KeyBudgetExceeded,
                ReserveResult.IdempotencyKeyReused,
                ReserveResult.IdempotencyKeyInUse,
                RevertResult.NotFound,
                RevertResult.AmountExceedsUnreverted,
                RevertResult.IdempotencyKeyReused,
                RevertResult.IdempotencyKeyInUse,
                SettleResult.NotFound,
                SettleResult.NotHeld,
                SettleResult.AlreadySettled,
                SettleResult.AmountExceedsHeld,
                ReleaseResult.NotFound,
                ReleaseResult.NotHeld,
                CreditResult.AccountNotFound,
                CreditResult.ExpiryNotInFuture,
                CreditResult.PoolLimitReached,
                CreditResult.BalanceLimitReached,
                OpenResult.UnknownPlan,
                PlanChangeResult.UnknownPlan,
                PlanChangeResult.AccountNotFound,
                InPeriodChangeResult.SamePlan,
                InPeriodChangeResult.UnknownPlan,
                InPeriodChangeResult.AccountNotFound,
                CancelPlanChangeResult.NothingPending,
                CancelPlanChangeResult.AccountNotFound,
                RevokeResult.AlreadyRevoked,
                RevokeResult.GrantNotFound,
                RevokeResult.AccountNotFound {}
