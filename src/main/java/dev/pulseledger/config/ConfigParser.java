package dev.pulseledger.config;

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
            String publicStatusPage) {}

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
                new Setting("--db-pool-size", "PULSELEDGER_DB_POOL_SIZE", raw.databasePoolSize()).intBetween(1, 200),
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
                new Setting("--public-status-page", "PULSELEDGER_PUBLIC_STATUS_PAGE", raw.publicStatusPage()).bool());
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
