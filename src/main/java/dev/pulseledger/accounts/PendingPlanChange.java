package dev.pulseledger.accounts;

import java.time.Instant;

/** A plan change waiting for the account's period to end (CONTRACT §13): the plan it moves to, and when. */
public record PendingPlanChange(String planId, Instant at) {}
