package dev.pulseledger.ledger.core;

import java.time.Instant;

/** An operator took back the {@code amount} tokens left in a credit grant at {@code at}; a grant is revoked once. */
public record Revocation(String grantId, String accountId, long amount, Instant at) {}
