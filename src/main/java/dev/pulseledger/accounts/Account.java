package dev.pulseledger.accounts;

import java.time.Instant;

/** A caller's token account: the plan it is on and its balance in whole tokens. */
public record Account(String id, String name, String planId, long balance, AccountStatus status, Instant createdAt) {}
