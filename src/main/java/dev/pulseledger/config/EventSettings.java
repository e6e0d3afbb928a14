package dev.pulseledger.config;

import java.time.Duration;

/**
 * Settings of events: how often each node reads the outbox (for event streams and webhook
 * deliveries), the stream heartbeat, and how webhook deliveries retry and time out.
 */
public record EventSettings(
        Duration pollInterval,
        Duration heartbeatInterval,
        int webhookMaxAttempts,
        Duration webhookRetryBase,
        Duration webhookTimeout) {}
