package dev.pulseledger;

import dev.pulseledger.config.Config;
import dev.pulseledger.config.ConfigParser;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pulseledger serve}: reads the settings (flags over environment) and runs a node. */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        versionProvider = BuildInfo.class,
        description = "Run the Pulseledger service. Flags override PULSELEDGER_* environment variables.")
public final class ServeCommand implements Callable<Integer> {
    @Option(
            names = "--host",
            defaultValue = "${env:PULSELEDGER_HOST:-0.0.0.0}",
            description = "Address to listen on (PULSELEDGER_HOST, default ${DEFAULT-VALUE}).")
    String host;

    @Option(
            names = "--port",
            defaultValue = "${env:PULSELEDGER_PORT:-8080}",
            description = "Port; 0 picks a free one (PULSELEDGER_PORT, default ${DEFAULT-VALUE}).")
    String port;

    @Option(
            names = "--database-url",
            defaultValue = "${env:PULSELEDGER_DATABASE_URL:-jdbc:sqlite:./data/pulseledger.db}",
            description = "jdbc:sqlite:… or jdbc:postgresql:… (PULSELEDGER_DATABASE_URL).")
    String databaseUrl;

    @Option(
            names = "--admin-key",
            defaultValue = "${env:PULSELEDGER_ADMIN_KEY:-}",
            description = "Admin key (PULSELEDGER_ADMIN_KEY); generated and printed once if unset.")
    String adminKey;

    @Option(names = "--demo", description = "Seed a demo plan, account, caller key and services.")
    boolean demo;

    @Option(
            names = "--db-pool-size",
            defaultValue = "${env:PULSELEDGER_DB_POOL_SIZE:-10}",
            description = "Database connections per node (PULSELEDGER_DB_POOL_SIZE).")
    String databasePoolSize;

    @Option(
            names = "--db-connection-timeout-ms",
            defaultValue = "${env:PULSELEDGER_DB_CONNECTION_TIMEOUT_MS:-2000}",
            description = "Wait for a pooled connection (PULSELEDGER_DB_CONNECTION_TIMEOUT_MS).")
    String databaseConnectionTimeoutMillis;

    @Option(
            names = "--db-statement-timeout-ms",
            defaultValue = "${env:PULSELEDGER_DB_STATEMENT_TIMEOUT_MS:-5000}",
            description = "Longest a statement may run (PULSELEDGER_DB_STATEMENT_TIMEOUT_MS).")
    String databaseStatementTimeoutMillis;

    @Option(
            names = "--db-startup-timeout-s",
            defaultValue = "${env:PULSELEDGER_DB_STARTUP_TIMEOUT_S:-60}",
            description = "How long start-up waits for the database (PULSELEDGER_DB_STARTUP_TIMEOUT_S).")
    String databaseStartupTimeoutSeconds;

    @Option(
            names = "--spend-queue-length",
            defaultValue = "${env:PULSELEDGER_SPEND_QUEUE_LENGTH:-10000}",
            description = "Spends and reverts waiting to commit before 503 (PULSELEDGER_SPEND_QUEUE_LENGTH).")
    String spendQueueLength;

    @Option(
            names = "--spend-batch-size",
            defaultValue = "${env:PULSELEDGER_SPEND_BATCH_SIZE:-256}",
            description = "Most spends and reverts committed together (PULSELEDGER_SPEND_BATCH_SIZE).")
    String spendBatchSize;

    @Option(
            names = "--public-status-page",
            arity = "0..1",
            fallbackValue = "true",
            defaultValue = "${env:PULSELEDGER_PUBLIC_STATUS_PAGE:-false}",
            description = "Serve the public HTML status page at /status (PULSELEDGER_PUBLIC_STATUS_PAGE, default"
                    + " ${DEFAULT-VALUE}).")
    String publicStatusPage;

    @Option(
            names = "--request-timeout-s",
            defaultValue = "${env:PULSELEDGER_REQUEST_TIMEOUT_S:-60}",
            description =
                    "Longest a request may take from its first line to its response (PULSELEDGER_REQUEST_TIMEOUT_S).")
    String requestTimeoutSeconds;

    @Option(
            names = "--idle-timeout-s",
            defaultValue = "${env:PULSELEDGER_IDLE_TIMEOUT_S:-30}",
            description = "Closes connections idle this long between requests (PULSELEDGER_IDLE_TIMEOUT_S).")
    String idleTimeoutSeconds;

    @Option(
            names = "--max-connections",
            defaultValue = "${env:PULSELEDGER_MAX_CONNECTIONS:-10000}",
            description = "Open connections at once (PULSELEDGER_MAX_CONNECTIONS).")
    String maxConnections;

    @Option(
            names = "--max-concurrent-requests",
            defaultValue = "${env:PULSELEDGER_MAX_CONCURRENT_REQUESTS:-1000}",
            description = "Requests in progress before 503 (PULSELEDGER_MAX_CONCURRENT_REQUESTS).")
    String maxConcurrentRequests;

    @Option(
            names = "--tls-keystore",
            defaultValue = "${env:PULSELEDGER_TLS_KEYSTORE:-}",
            description = "PKCS12 keystore: serve HTTPS with its key (PULSELEDGER_TLS_KEYSTORE).")
    String tlsKeystore;

    @Option(
            names = "--tls-keystore-password",
            defaultValue = "${env:PULSELEDGER_TLS_KEYSTORE_PASSWORD:-}",
            description = "Password of the TLS keystore (PULSELEDGER_TLS_KEYSTORE_PASSWORD).")
    String tlsKeystorePassword;

    @Option(
            names = "--idempotency-retention-h",
            defaultValue = "${env:PULSELEDGER_IDEMPOTENCY_RETENTION_H:-24}",
            description = "Hours an Idempotency-Key is remembered, at least 24 (PULSELEDGER_IDEMPOTENCY_RETENTION_H).")
    String idempotencyRetentionHours;

    @Option(
            names = "--events-poll-ms",
            defaultValue = "${env:PULSELEDGER_EVENTS_POLL_MS:-500}",
            description =
                    "How often each node reads new events for streams and webhooks" + " (PULSELEDGER_EVENTS_POLL_MS).")
    String eventsPollMillis;

    @Option(
            names = "--sse-heartbeat-ms",
            defaultValue = "${env:PULSELEDGER_SSE_HEARTBEAT_MS:-15000}",
            description = "Heartbeat interval of /api/pulse/stream (PULSELEDGER_SSE_HEARTBEAT_MS).")
    String sseHeartbeatMillis;

    @Option(
            names = "--webhook-max-attempts",
            defaultValue = "${env:PULSELEDGER_WEBHOOK_MAX_ATTEMPTS:-12}",
            description = "Attempts per webhook delivery before it fails (PULSELEDGER_WEBHOOK_MAX_ATTEMPTS).")
    String webhookMaxAttempts;

    @Option(
            names = "--webhook-retry-base-ms",
            defaultValue = "${env:PULSELEDGER_WEBHOOK_RETRY_BASE_MS:-30000}",
            description = "First webhook retry delay, doubled per attempt up to 1 h"
                    + " (PULSELEDGER_WEBHOOK_RETRY_BASE_MS).")
    String webhookRetryBaseMillis;

    @Option(
            names = "--webhook-timeout-ms",
            defaultValue = "${env:PULSELEDGER_WEBHOOK_TIMEOUT_MS:-10000}",
            description = "Connect and response timeout of a webhook delivery (PULSELEDGER_WEBHOOK_TIMEOUT_MS).")
    String webhookTimeoutMillis;

    /** Parses {@code serve} flags (falling back to the environment) into a checked config. */
    public static Config parseConfig(String... args) {
        ServeCommand command = new ServeCommand();
        new CommandLine(command).parseArgs(args);
        return command.config();
    }

    private Config config() {
        return ConfigParser.parse(new ConfigParser.Raw(
                host,
                port,
                databaseUrl,
                adminKey,
                demo,
                databasePoolSize,
                databaseConnectionTimeoutMillis,
                databaseStatementTimeoutMillis,
                databaseStartupTimeoutSeconds,
                spendQueueLength,
                spendBatchSize,
                publicStatusPage,
                requestTimeoutSeconds,
                idleTimeoutSeconds,
                maxConnections,
                maxConcurrentRequests,
                tlsKeystore,
                tlsKeystorePassword,
                idempotencyRetentionHours,
                new ConfigParser.RawEvents(
                        eventsPollMillis,
                        sseHeartbeatMillis,
                        webhookMaxAttempts,
                        webhookRetryBaseMillis,
                        webhookTimeoutMillis)));
    }

    @Override
    public Integer call() throws InterruptedException {
        Config config = config();
        Application application = Application.start(config, System.out);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            application.close();
            stopped.countDown();
        }));
        stopped.await();
        return 0;
    }
}
