package dev.pulseledger.config;

import java.time.Duration;
import java.util.Optional;

/** Every setting of a running node, parsed and checked before the server opens a port. */
public record Config(
        String host,
        int port,
        String databaseUrl,
        Optional<String> adminKey,
        boolean demo,
        int databasePoolSize,
        Duration databaseConnectionTimeout,
        Duration databaseStatementTimeout,
        Duration databaseStartupTimeout,
        int spendQueueLength,
        int spendBatchSize,
        boolean publicStatusPage,
        ServerLimits serverLimits,
        Optional<TlsKeystore> tls,
        Duration idempotencyRetention,
        EventSettings events) {}
