package dev.pulseledger.ledger.web;

import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.ledger.core.CancelPlanChangeResult;
import dev.pulseledger.ledger.core.CreditResult;
import dev.pulseledger.ledger.core.InPeriodChangeResult;
import dev.pulseledger.ledger.core.LedgerCore;
import dev.pulseledger.ledger.core.OpenResult;
import dev.pulseledger.ledger.core.PlanChangeResult;
import dev.pulseledger.ledger.core.Refusal;
import dev.pulseledger.ledger.core.ReleaseResult;
import dev.pulseledger.ledger.core.Reservation;
import dev.pulseledger.ledger.core.ReserveResult;
import dev.pulseledger.ledger.core.RevertResult;
import dev.pulseledger.ledger.core.RevokeResult;
import dev.pulseledger.ledger.core.SettleResult;
import dev.pulseledger.ledger.core.SpendResult;

/** The one map from a ledger refusal to the problem its caller is answered with (CONTRACT §1's codes). */
public final class LedgerProblems {
    private LedgerProblems() {}

    /** The problem that answers {@code refusal}; the switch is exhaustive, so every refusal has one. */
    public static ProblemException of(Refusal refusal) {
        return switch (refusal) {
            case SpendResult.InsufficientBalance insufficient ->
                insufficientBalance("spend", insufficient.balance(), insufficient.required(), insufficient.replayed());
            case ReserveResult.InsufficientBalance insufficient ->
                insufficientBalance(
                        "reservation", insufficient.balance(), insufficient.required(), insufficient.replayed());
            case SpendResult.PoolNotFound unknown -> poolNotFound(unknown.pool());
            case ReserveResult.PoolNotFound unknown -> poolNotFound(unknown.pool());
            case SpendResult.KeyBudgetExceeded over -> KeyBudgetJson.exceeded("spend", over.window());
            case ReserveResult.KeyBudgetExceeded over -> KeyBudgetJson.exceeded("hold", over.window());
            case SpendResult.IdempotencyKeyReused reused ->
                new ProblemException(
                        ProblemCode.IDEMPOTENCY_KEY_REUSED,
                        "This Idempotency-Key was first used to spend " + reused.firstAmount()
                                + " tokens; use a new key for a different amount.");
            case ReserveResult.IdempotencyKeyReused reused -> idempotencyKeyReused();
            case RevertResult.IdempotencyKeyReused reused -> idempotencyKeyReused();
            case SpendResult.IdempotencyKeyInUse inUse -> idempotencyKeyInUse();
            case ReserveResult.IdempotencyKeyInUse inUse -> idempotencyKeyInUse();
            case RevertResult.IdempotencyKeyInUse inUse -> idempotencyKeyInUse();
            case RevertResult.NotFound notFound -> spendingNotFound();
            case RevertResult.AmountExceedsUnreverted exceeds ->
                new ProblemException(
                        ProblemCode.REVERT_EXCEEDS_SPENDING,
                        "Only " + exceeds.unreverted() + " tokens of this spending are left to revert.",
                        new TokenJson.UnrevertedBody(exceeds.unreverted()));
            case SettleResult.NotFound notFound -> reservationNotFound();
            case ReleaseResult.NotFound notFound -> reservationNotFound();
            case SettleResult.NotHeld notHeld -> reservationNotHeld(notHeld.reservation());
            case ReleaseResult.NotHeld notHeld -> reservationNotHeld(notHeld.reservation());
            case SettleResult.AlreadySettled settled -> {
                long amount = settled.reservation().settledAmount().orElseThrow();
                yield new ProblemException(
                        ProblemCode.RESERVATION_ALREADY_SETTLED,
                        "This reservation was already settled for " + amount + " tokens.",
                        new ReservationJson.SettledBody(amount));
            }
            case SettleResult.AmountExceedsHeld exceeds ->
                new ProblemException(
                        ProblemCode.SETTLE_EXCEEDS_HELD,
                        "This reservation holds " + exceeds.held() + " tokens; settle at most that.",
                        new ReservationJson.HeldBody(exceeds.held()));
            case CreditResult.AccountNotFound notFound -> accountNotFound();
            case PlanChangeResult.AccountNotFound notFound -> accountNotFound();
            case RevokeResult.AccountNotFound notFound -> accountNotFound();
            case InPeriodChangeResult.AccountNotFound notFound -> accountNotFound();
            case CancelPlanChangeResult.AccountNotFound notFound -> accountNotFound();
            case InPeriodChangeResult.UnknownPlan unknown -> unknownPlan();
            case InPeriodChangeResult.SamePlan same ->
                new ProblemException(
                        ProblemCode.PLAN_UNCHANGED,
                        "The account is on this plan already; to drop a waiting change, DELETE it.");
            case CancelPlanChangeResult.NothingPending none ->
                new ProblemException(
                        ProblemCode.PLAN_CHANGE_NOT_FOUND, "No plan change waits for this account's period to end.");
            case CreditResult.ExpiryNotInFuture past ->
                ProblemException.invalidField("expiresAt", "must be in the future");
            case CreditResult.PoolLimitReached limit ->
                new ProblemException(
                        ProblemCode.POOL_LIMIT_REACHED,
                        "An account may have at most " + limit.limit() + " pools, default included.");
            case CreditResult.BalanceLimitReached limit ->
                new ProblemException(
                        ProblemCode.BALANCE_LIMIT_REACHED,
                        "An account may hold at most " + LedgerCore.MAX_BALANCE + " tokens.");
            case OpenResult.UnknownPlan unknown -> unknownPlan();
            case PlanChangeResult.UnknownPlan unknown -> unknownPlan();
            case RevokeResult.AlreadyRevoked already ->
                new ProblemException(ProblemCode.GRANT_ALREADY_REVOKED, "This grant was revoked already.");
            case RevokeResult.GrantNotFound missing ->
                new ProblemException(ProblemCode.GRANT_NOT_FOUND, "The account has no credit grant with this id.");
        };
    }

    /** 404 account_not_found. */
    public static ProblemException accountNotFound() {
        return new ProblemException(ProblemCode.ACCOUNT_NOT_FOUND, "No account has this id.");
    }

    /** 404 spending_not_found: also the answer to an id that cannot be a spending's. */
    public static ProblemException spendingNotFound() {
        return new ProblemException(
                ProblemCode.SPENDING_NOT_FOUND, "No spending with this id belongs to your account.");
    }

    /** 404 reservation_not_found: also the answer to an id that cannot be a reservation's. */
    public static ProblemException reservationNotFound() {
        return new ProblemException(
                ProblemCode.RESERVATION_NOT_FOUND, "No reservation with this id belongs to your account.");
    }

    /** 404 pool_not_found. */
    public static ProblemException poolNotFound(String pool) {
        return new ProblemException(ProblemCode.POOL_NOT_FOUND, "Your account has no pool named '" + pool + "'.");
    }

    private static ProblemException unknownPlan() {
        return new ProblemException(ProblemCode.UNKNOWN_PLAN, "No plan has this planId.");
    }

    /** 402: the balance is below what a spend or reservation ({@code what}) needs; marked when replayed. */
    private static ProblemException insufficientBalance(String what, long balance, long required, boolean replayed) {
        ProblemException problem = new ProblemException(
                ProblemCode.INSUFFICIENT_BALANCE,
                "The balance is " + balance + " tokens; this " + what + " needs " + required + ".",
                new TokenJson.InsufficientBody(balance, required));
        return replayed ? problem.withHeader(TokenRoutes.IDEMPOTENT_REPLAYED.defaultCase(), "true") : problem;
    }

    private static ProblemException idempotencyKeyReused() {
        return new ProblemException(
                ProblemCode.IDEMPOTENCY_KEY_REUSED,
                "This Idempotency-Key was first used for another request; use a new key.");
    }

    private static ProblemException idempotencyKeyInUse() {
        return new ProblemException(
                ProblemCode.IDEMPOTENCY_KEY_IN_USE,
                "A request with this Idempotency-Key is still being handled; retry shortly.");
    }

    private static ProblemException reservationNotHeld(Reservation reservation) {
        return new ProblemException(
                ProblemCode.RESERVATION_NOT_HELD,
                "This reservation is " + reservation.status().wire() + "; nothing is held to settle or release.",
                new ReservationJson.NotHeldBody(reservation.status().wire()));
    }
}
