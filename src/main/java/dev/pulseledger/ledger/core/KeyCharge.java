package dev.pulseledger.ledger.core;

import java.time.Instant;

/**
 * The key a spending or hold is charged to, and when its key's budgets count it: when it was made, and for
 * a settle's spending when its hold was made, so that a settle counts in the hold's window.
 */
public record KeyCharge(String keyId, Instant at) {}
