package dev.pulseledger.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** Turns raw flag-or-environment values into a checked {@link Config}, naming any bad setting. */
public final class ConfigParser {
    public static final int MIN_ADMIN_KEY_LENGTH = 16;
    public static final int MAX_ADMIN_KEY_LENGTH = 200;

    /** The raw values, each already resolved from its flag or else its environment variable. */
    public record Raw(
            String host,
            String port,
            String databaseUrl,
            String adminKey,
            boolean demo,
            String databasePoolSize,
            String databaseConnectionTimeoutMillis,
            String databaseStatementTimeoutMillis,
            String databaseStartupTimeoutSeconds,
            String spendQueueLength,
            String spendBatchSize,
            String publicStatusPage,
            String requestTimeoutSeconds,
            String idleTimeoutSeconds,
            String maxConnections,
            String maxConcurrentRequests,
            String tlsKeystore,
            String tlsKeystorePassword,
            String idempotencyRetentionHours,
            RawEvents events) {}

    /** The raw event settings (see {@link EventSettings}). */
    public record RawEvents(
            String pollMillis,
            String heartbeatMillis,
            String webhookMaxAttempts,
            String webhookRetryBaseMillis,
            String webhookTimeoutMillis) {}

    private ConfigParser() {}

    public static Config parse(Raw raw) {
        Setting host = new Setting("--host", "PULSELEDGER_HOST", raw.host());
        if (host.text().isEmpty() || host.text().length() > 255) {
            throw host.invalid("a host name or address to listen on");
        }
        Setting url = new Setting("--database-url", "PULSELEDGER_DATABASE_URL", raw.databaseUrl());
        if (!url.text().startsWith("jdbc:sqlite:") && !url.text().startsWith("jdbc:postgresql:")) {
            throw url.invalid("a URL starting with jdbc:sqlite: or jdbc:postgresql:");
        }
        return new Config(
                host.text(),
                new Setting("--port", "PULSELEDGER_PORT", raw.port()).intBetween(0, 65535),
                url.text(),
                adminKey(raw.adminKey()),
                raw.demo(),
                new Setting("--db-pool-size", "PULSELEDGER_DB_POOL_SIZE", raw.databasePoolSize()).intBetween(2, 200),
                new Setting(
                                "--db-connection-timeout-ms",
                                "PULSELEDGER_DB_CONNECTION_TIMEOUT_MS",
                                raw.databaseConnectionTimeoutMillis())
                        .millisBetween(250, 60_000),
                new Setting(
                                "--db-statement-timeout-ms",
                                "PULSELEDGER_DB_STATEMENT_TIMEOUT_MS",
                                raw.databaseStatementTimeoutMillis())
                        .millisBetween(100, 600_000),
                Duration.ofSeconds(new Setting(
                                "--db-startup-timeout-s",
                                "PULSELEDGER_DB_STARTUP_TIMEOUT_S",
                                raw.databaseStartupTimeoutSeconds())
                        .intBetween(0, 3600)),
                new Setting("--spend-queue-length", "PULSELEDGER_SPEND_QUEUE_LENGTH", raw.spendQueueLength())
                        .intBetween(1, 1_000_000),
                new Setting("--spend-batch-size", "PULSELEDGER_SPEND_BATCH_SIZE", raw.spendBatchSize())
                        .intBetween(1, 10_000),
                new Setting("--public-status-page", "PULSELEDGER_PUBLIC_STATUS_PAGE", raw.publicStatusPage()).bool(),
                serverLimits(raw),
                tls(raw.tlsKeystore(), raw.tlsKeystorePassword()),
                Duration.ofHours(new Setting(
                                "--idempotency-retention-h",
                                "PULSELEDGER_IDEMPOTENCY_RETENTION_H",
                                raw.idempotencyRetentionHours())
                        .intBetween(24, 24 * 366)),
                events(raw.events()));
    }

    private static ServerLimits serverLimits(Raw raw) {
        return new ServerLimits(
                Duration.ofSeconds(
                        new Setting("--request-timeout-s", "PULSELEDGER_REQUEST_TIMEOUT_S", raw.requestTimeoutSeconds())
                                .intBetween(1, 3600)),
                Duration.ofSeconds(
                        new Setting("--idle-timeout-s", "PULSELEDGER_IDLE_TIMEOUT_S", raw.idleTimeoutSeconds())
                                .intBetween(1, 3600)),
                new Setting("--max-connections", "PULSELEDGER_MAX_CONNECTIONS", raw.maxConnections())
                        .intBetween(1, 1_000_000),
                new Setting(
                                "--max-concurrent-requests",
                                "PULSELEDGER_MAX_CONCURRENT_REQUESTS",
                                raw.maxConcurrentRequests())
                        .intBetween(1, 1_000_000));
    }

    private static Optional<TlsKeystore> tls(String keystore, String password) {
        Setting path = new Setting("--tls-keystore", "PULSELEDGER_TLS_KEYSTORE", keystore == null ? "" : keystore);
        boolean hasPassword = password != null && !password.isEmpty();
        if (path.text().isEmpty()) {
            if (hasPassword) {
                throw path.invalid("a PKCS12 keystore file, since a keystore password is set");
            }
            return Optional.empty();
        }
        if (!Files.isRegularFile(Path.of(path.text())) || !Files.isReadable(Path.of(path.text()))) {
            throw path.invalid("a readable PKCS12 keystore file");
        }
        if (!hasPassword) {
            throw new Setting("--tls-keystore-password", "PULSELEDGER_TLS_KEYSTORE_PASSWORD", "")
                    .invalid("the keystore's password");
        }
        return Optional.of(new TlsKeystore(Path.of(path.text()), password));
    }

    private static EventSettings events(RawEvents raw) {
        return new EventSettings(
                new Setting("--events-poll-ms", "PULSELEDGER_EVENTS_POLL_MS", raw.pollMillis())
                        .millisBetween(10, 60_000),
                new Setting("--sse-heartbeat-ms", "PULSELEDGER_SSE_HEARTBEAT_MS", raw.heartbeatMillis())
                        .millisBetween(100, 300_000),
                new Setting("--webhook-max-attempts", "PULSELEDGER_WEBHOOK_MAX_ATTEMPTS", raw.webhookMaxAttempts())
                        .intBetween(1, 50),
                new Setting(
                                "--webhook-retry-base-ms",
                                "PULSELEDGER_WEBHOOK_RETRY_BASE_MS",
                                raw.webhookRetryBaseMillis())
                        .millisBetween(10, 3_600_000),
                new Setting("--webhook-timeout-ms", "PULSELEDGER_WEBHOOK_TIMEOUT_MS", raw.webhookTimeoutMillis())
                        .millisBetween(100, 60_000));
    }

    private static Optional<String> adminKey(String value) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        Setting setting = new Setting("--admin-key", "PULSELEDGER_ADMIN_KEY", "(hidden)");
        boolean printable = value.chars().allMatch(c -> c > 0x20 && c < 0x7f);
        if (!printable || value.length() < MIN_ADMIN_KEY_LENGTH || value.length() > MAX_ADMIN_KEY_LENGTH) {
            throw setting.invalid(MIN_ADMIN_KEY_LENGTH
                    + " to "
                    + MAX_ADMIN_KEY_LENGTH
                    + " printable ASCII characters without spaces");
        }
        return Optional.of(value);
    }
}
