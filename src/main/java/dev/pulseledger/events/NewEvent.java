package dev.pulseledger.events;

import dev.pulseledger.http.Times;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An event about to be appended to the outbox: its type and the {@code data} of its envelope. The
 * factories below are the one place that defines each type's data, as docs/WEBHOOKS.md shows it.
 */
public record NewEvent(EventType type, Map<String, Object> data) {
    /** The data field that tells whether a service is listed to callers. */
    public static final String PUBLIC = "public";

    private static final String RESERVATION_PREFIX = "rsv_";

    public NewEvent {
        data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
    }

    /** A service's status changed from {@code oldStatus} to a different {@code newStatus}. */
    public static NewEvent serviceStatusChanged(
            String serviceId, String serviceName, String oldStatus, String newStatus, boolean isPublic) {
        if (oldStatus.equals(newStatus)) {
            throw new IllegalArgumentException("A status change needs two different statuses: " + oldStatus);
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("serviceId", serviceId);
        data.put("serviceName", serviceName);
        data.put("oldStatus", oldStatus);
        data.put("newStatus", newStatus);
        data.put(PUBLIC, isPublic);
        return new NewEvent(EventType.SERVICE_STATUS_CHANGED, data);
    }

    /** An incident was opened; {@code incident} is its JSON as callers see it. */
    public static NewEvent incidentCreated(Map<String, Object> incident, boolean isPublic) {
        return incident(EventType.INCIDENT_CREATED, incident, isPublic);
    }

    /** An incident got an update, or its title or impact changed; {@code incident} is its new JSON. */
    public static NewEvent incidentUpdated(Map<String, Object> incident, boolean isPublic) {
        return incident(EventType.INCIDENT_UPDATED, incident, isPublic);
    }

    private static NewEvent incident(EventType type, Map<String, Object> incident, boolean isPublic) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("incident", incident);
        data.put(PUBLIC, isPublic);
        return new NewEvent(type, data);
    }

    /** A spend took the account's balance from at least {@code threshold} to below it. */
    public static NewEvent balanceLow(
            String accountId, long balanceBefore, long balance, long threshold, String spendingId) {
        if (balanceBefore < threshold || balance >= threshold) {
            throw new IllegalArgumentException("The balance did not cross the threshold");
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("accountId", accountId);
        data.put("balance", balance);
        data.put("previousBalance", balanceBefore);
        data.put("threshold", threshold);
        data.put("spendingId", spendingId);
        return new NewEvent(EventType.BALANCE_LOW, data);
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
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("accountId", accountId);
        data.put("planId", planId);
        data.put("reason", reason);
        data.put("periodStart", Times.format(periodStart));
        data.put("periodEnd", Times.format(periodEnd));
        data.put("granted", granted);
        data.put("rolledOver", rolledOver);
        data.put("expired", expired);
        data.put("balance", balance);
        return new NewEvent(EventType.ALLOWANCE_RENEWED, data);
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
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("accountId", accountId);
        data.put("amount", amount);
        data.put(
                "grants",
                byGrant.entrySet().stream()
                        .map(e -> Map.of("grantId", e.getKey(), "amount", e.getValue()))
                        .toList());
        boolean reservation =
                cause.filter(id -> id.startsWith(RESERVATION_PREFIX)).isPresent();
        data.put("spendingId", reservation ? null : cause.orElse(null));
        if (reservation) {
            data.put("reservationId", cause.get());
        }
        data.put("balance", balance);
        return new NewEvent(EventType.CREDITS_EXPIRED, data);
    }

    /** A reservation reached its expiry still held: everything it held went back (CONTRACT §8). */
    public static NewEvent reservationExpired(
            String accountId, String reservationId, long amount, Instant expiresAt, long balance) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("accountId", accountId);
        data.put("reservationId", reservationId);
        data.put("amount", amount);
        data.put("expiresAt", Times.format(expiresAt));
        data.put("balance", balance);
        return new NewEvent(EventType.RESERVATION_EXPIRED, data);
    }
}
