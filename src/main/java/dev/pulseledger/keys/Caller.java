package dev.pulseledger.keys;

/** An authenticated caller: the account its key belongs to, and the key. */
public record Caller(String accountId, String keyId, String planId) {}
