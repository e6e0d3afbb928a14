package dev.pulseledger.operators;

import java.time.Instant;

/** One change an operator made: when, who (id and name at the time), with what, which request, its status. */
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
