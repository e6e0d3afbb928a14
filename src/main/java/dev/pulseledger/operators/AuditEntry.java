package dev.pulseledger.operators;

import java.time.Instant;

/**
 * One change an operator made: when, who (id and name at the time), with what, which request, its status
 * ({@code 0} while unknown: the change had not answered, or its node stopped before it did).
 */
public record AuditEntry(
        long sequence,
        Instant at,
        String operatorId,
        String operatorName,
        String via,
        String credential,
        String method,
        String path,
        int status) {}
