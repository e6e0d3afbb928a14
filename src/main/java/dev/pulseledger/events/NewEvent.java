package dev.pulseledger.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.pulseledger.http.Times;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * An event about to be appended to the outbox: its type and the {@code data} of its envelope. The
 * records below are the one place that defines each type's data, as docs/WEBHOOKS.md shows it.
 */
public record NewEvent(EventType type, NewEvent.Data data) {
    /** The data field that tells whether a service is listed to callers. */
    public static final String PUBLIC = "public";

    private static final String RESERVATION_PREFIX = "rsv_";

    /** The {@code data} of an event's envelope, one record per kind of event. */
    public sealed interface Data
            permits ServiceStatusChanged,
                    IncidentChanged,
                    BalanceLow,
                    AllowanceRenewed,
                    CreditsExpired,
                    ReservationExpired,
                    SlaCredited,
                    KeyBudgetReached,
                    PlanChanged,
                    PlanChangeScheduled,
                    StatusNoticed {}

    public record ServiceStatusChanged(
            String serviceId,
            String serviceName,
            String oldStatus,
            String newStatus,
            @JsonProperty(PUBLIC) boolean isPublic)
            implements Data {}

    /** {@code incident} is the incident's JSON as callers see it. */
    public record IncidentChanged(
            Object incident, @JsonProperty(PUBLIC) boolean isPublic) implements Data {}

    public record BalanceLow(String accountId, long balance, long previousBalance, long threshold, String spendingId)
            implements Data {}

    public record AllowanceRenewed(
            String accountId,
            String planId,
            String reason,
            String periodStart,
            String periodEnd,
            long granted,
            long rolledOver,
            long expired,
            long balance)
            implements Data {}

    public record CreditsExpired(
            String accountId,
            long amount,
            List<GrantAmount> grants,
            @Nullable String spendingId,

            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
            String reservationId,

            long balance)
            implements Data {}

    public record ReservationExpired(
            String accountId, String reservationId, long amount, String expiresAt, long balance) implements Data {}

    public record SlaCredited(
            String accountId,
            String grantId,
            String periodStart,
            String periodEnd,
            double uptime,
            int creditPercent,
            long amount,
            List<String> incidents,
            long balance)
            implements Data {}

    /**
     * A key's use of a pool in a budget's window reached 80 % ({@code key.budget_warning}) or 100 %
     * ({@code key.budget_exhausted}) of the budget; {@code resetsAt} is the window's end.
     */
    public record KeyBudgetReached(
            String accountId,
            String keyId,
            KeyBudgetData budget,
            long used,
            long remaining,
            String windowStart,
            String resetsAt)
            implements Data {}

    /** A key budget as an event shows it. */
    public record KeyBudgetData(String pool, String period, long tokens) {}

    /**
     * The account moved from {@code previousPlanId} to {@code planId} at {@code at}, {@code when} being {@code now}
     * (the period kept: {@code expired} tokens of the old allowance expired, {@code granted} prorated) or
     * {@code period_end} (the renewal at {@code at} applied it: what it expired and granted).
     */
    public record PlanChanged(
            String accountId,
            String previousPlanId,
            String planId,
            String when,
            String at,
            String periodStart,
            String periodEnd,
            long expired,
            long granted,
            long balance)
            implements Data {}

    /** A plan change waits for the period's end at {@code at}; {@code replacedPlanId} is the one it replaced. */
    public record PlanChangeScheduled(
            String accountId,
            String currentPlanId,
            String planId,
            String at,
            @Nullable String replacedPlanId) implements Data {}

    /**
     * A notice for status subscribers: {@code subject} is the incident or maintenance window's id,
     * {@code services} the public services it touches (empty: an incident naming none touches all).
     */
    public record StatusNoticed(
            String noticeId,
            String subject,
            String title,
            String status,
            String message,
            List<String> services,

            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
            String startsAt,

            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
            String endsAt)
            implements Data {}

    /** How many tokens of one grant expired. */
    public record GrantAmount(String grantId, long amount) {}

    /** A service's status changed from {@code oldStatus} to a different {@code newStatus}. */
    public static NewEvent serviceStatusChanged(
            String serviceId, String serviceName, String oldStatus, String newStatus, boolean isPublic) {
        if (oldStatus.equals(newStatus)) {
            throw new IllegalArgumentException("A status change needs two different statuses: " + oldStatus);
        }
        return new NewEvent(
                EventType.SERVICE_STATUS_CHANGED,
                new ServiceStatusChanged(serviceId, serviceName, oldStatus, newStatus, isPublic));
    }

    /** An incident was opened; {@code incident} is its JSON as callers see it. */
    public static NewEvent incidentCreated(Object incident, boolean isPublic) {
        return new NewEvent(EventType.INCIDENT_CREATED, new IncidentChanged(incident, isPublic));
    }

    /** An incident got an update, or its title or impact changed; {@code incident} is its new JSON. */
    public static NewEvent incidentUpdated(Object incident, boolean isPublic) {
        return new NewEvent(EventType.INCIDENT_UPDATED, new IncidentChanged(incident, isPublic));
    }

    /** A spend took the account's balance from at least {@code threshold} to below it. */
    public static NewEvent balanceLow(
            String accountId, long balanceBefore, long balance, long threshold, String spendingId) {
        if (balanceBefore < threshold || balance >= threshold) {
            throw new IllegalArgumentException("The balance did not cross the threshold");
        }
        return new NewEvent(
                EventType.BALANCE_LOW, new BalanceLow(accountId, balance, balanceBefore, threshold, spendingId));
    }

    /**
     * A new period began for the account: at its end ({@code reason} "renewal") or on a plan change
     * ("plan_change"). {@code expired} unused allowance tokens expired, {@code rolledOver} carried over.
     */
    public static NewEvent allowanceRenewed(
            String accountId,
            String planId,
            String reason,
            Instant periodStart,
            Instant periodEnd,
            long granted,
            long rolledOver,
            long expired,
            long balance) {
        return new NewEvent(
                EventType.ALLOWANCE_RENEWED,
                new AllowanceRenewed(
                        accountId,
                        planId,
                        reason,
                        Times.format(periodStart),
                        Times.format(periodEnd),
                        granted,
                        rolledOver,
                        expired,
                        balance));
    }

    /**
     * Tokens of the account's grants expired: at their expiry, or at once when a revert, a settle or a
     * release returned them to a grant that had expired ({@code cause} names that spending or reservation).
     */
    public static NewEvent creditsExpired(
            String accountId, long amount, Map<String, Long> byGrant, Optional<String> cause, long balance) {
        if (amount <= 0) {
            throw new IllegalArgumentException("Nothing expired");
        }
        return new NewEvent(
                EventType.CREDITS_EXPIRED,
                new CreditsExpired(
                        accountId,
                        amount,
                        byGrant.entrySet().stream()
                                .map(e -> new GrantAmount(e.getKey(), e.getValue()))
                                .toList(),
                        cause.filter(id -> !id.startsWith(RESERVATION_PREFIX)).orElse(null),
                        cause.filter(id -> id.startsWith(RESERVATION_PREFIX)).orElse(null),
                        balance));
    }

    /** An ended period breached the account's SLA and {@code amount} tokens were credited (CONTRACT §13). */
    public static NewEvent slaCredited(
            String accountId,
            String grantId,
            Instant periodStart,
            Instant periodEnd,
            double uptime,
            int creditPercent,
            long amount,
            List<String> incidents,
            long balance) {
        return new NewEvent(
                EventType.SLA_CREDITED,
                new SlaCredited(
                        accountId,
                        grantId,
                        Times.format(periodStart),
                        Times.format(periodEnd),
                        uptime,
                        creditPercent,
                        amount,
                        List.copyOf(incidents),
                        balance));
    }

    /** A key budget's window reached 80 % of the budget, or all of it when {@code exhausted}. */
    public static NewEvent keyBudgetReached(
            boolean exhausted,
            String accountId,
            String keyId,
            String pool,
            String period,
            long tokens,
            long used,
            Instant windowStart,
            Instant resetsAt) {
        return new NewEvent(
                exhausted ? EventType.KEY_BUDGET_EXHAUSTED : EventType.KEY_BUDGET_WARNING,
                new KeyBudgetReached(
                        accountId,
                        keyId,
                        new KeyBudgetData(pool, period, tokens),
                        used,
                        Math.max(0, tokens - used),
                        Times.format(windowStart),
                        Times.format(resetsAt)));
    }

    /** The account moved to another plan within its period (CONTRACT §13). */
    public static NewEvent planChanged(
            String accountId,
            String previousPlanId,
            String planId,
            String when,
            Instant at,
            Instant periodStart,
            Instant periodEnd,
            long expired,
            long granted,
            long balance) {
        return new NewEvent(
                EventType.PLAN_CHANGED,
                new PlanChanged(
                        accountId,
                        previousPlanId,
                        planId,
                        when,
                        Times.format(at),
                        Times.format(periodStart),
                        Times.format(periodEnd),
                        expired,
                        granted,
                        balance));
    }

    /** A plan change now waits for the account's period to end at {@code at} (CONTRACT §13). */
    public static NewEvent planChangeScheduled(
            String accountId, String currentPlanId, String planId, Instant at, Optional<String> replacedPlanId) {
        return new NewEvent(
                EventType.PLAN_CHANGE_SCHEDULED,
                new PlanChangeScheduled(
                        accountId, currentPlanId, planId, Times.format(at), replacedPlanId.orElse(null)));
    }

    /** A reservation reached its expiry still held: everything it held went back (CONTRACT §8). */
    public static NewEvent reservationExpired(
            String accountId, String reservationId, long amount, Instant expiresAt, long balance) {
        return new NewEvent(
                EventType.RESERVATION_EXPIRED,
                new ReservationExpired(accountId, reservationId, amount, Times.format(expiresAt), balance));
    }
}
