package dev.pulseledger.config;

import dev.pulseledger.i18n.Language;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every setting of {@code serve}, each declared once. The {@code serve} options, the checks before
 * the port opens and the README's configuration table all come from these declarations; adding a
 * setting is one {@code declare(...)} here (plus its README row, which a test demands), then {@code
 * config.get(Settings.YOURS)} where it is used.
 */
public final class Settings {
    public static final int MIN_ADMIN_KEY_LENGTH = 16;
    public static final int MAX_ADMIN_KEY_LENGTH = 200;

    // Filled by declare(...) in declaration order, so it must come before the declarations.
    private static final List<Setting<?>> DECLARED = new ArrayList<>();

    public static final Setting<Integer> PORT =
            declare("port", Kind.wholeNumber(0, 65535), "8080", "Port to listen on; 0 picks a free one and logs it.");
    public static final Setting<String> HOST = declare(
            "host",
            Kind.text("a host name or address", host -> !host.isEmpty() && host.length() <= 255),
            "0.0.0.0",
            "Address to listen on.");
    public static final Setting<String> DATABASE_URL = declare(
            "database-url",
            Kind.text(
                    "a URL starting with jdbc:sqlite: or jdbc:postgresql:",
                    url -> url.startsWith("jdbc:sqlite:") || url.startsWith("jdbc:postgresql:")),
            "jdbc:sqlite:./data/pulseledger.db",
            "The database; an SQLite file is created on first start.");
    public static final Setting<Optional<String>> ADMIN_KEY = declareSecret(
            "admin-key",
            Kind.optional(Kind.text(
                    MIN_ADMIN_KEY_LENGTH + " to " + MAX_ADMIN_KEY_LENGTH + " printable ASCII characters without spaces",
                    Settings::isAdminKey)),
            "The admin key; without one, the first start generates one and prints it once.");
    public static final Setting<Boolean> DEMO = declare(
            "demo",
            Kind.bool(),
            "false",
            "Seeds a demo plan, account, caller key (printed), services, an incident and a maintenance;"
                    + " serves the status page.");
    public static final Setting<Integer> DB_POOL_SIZE = declare(
            "db-pool-size",
            Kind.wholeNumber(2, 200),
            "10",
            "Database connections per node; one or two of them serve key lookups.");
    public static final Setting<Duration> DB_CONNECTION_TIMEOUT = declare(
            "db-connection-timeout-ms",
            Kind.millis(250, 60_000),
            "2000",
            "How long a request waits for a pooled connection before 503 database_unavailable.");
    public static final Setting<Duration> DB_STATEMENT_TIMEOUT =
            declare("db-statement-timeout-ms", Kind.millis(100, 600_000), "5000", "Longest a SQL statement may run.");
    public static final Setting<String> DB_POOLER = declare(
            "db-pooler",
            Kind.text("none or transaction", pooler -> pooler.equals("none") || pooler.equals("transaction")),
            "none",
            "transaction: PostgreSQL is reached through a transaction-pooling pooler (PgBouncer); nothing"
                    + " session-scoped is used.");
    public static final Setting<Duration> DB_STARTUP_TIMEOUT =
            declare("db-startup-timeout-s", Kind.seconds(0, 3600), "60", "How long start-up waits for the database.");
    public static final Setting<Integer> SPEND_QUEUE_LENGTH = declare(
            "spend-queue-length",
            Kind.wholeNumber(1, 1_000_000),
            "10000",
            "Spends and reverts waiting to commit; beyond it 503 overloaded.");
    public static final Setting<Integer> SPEND_BATCH_SIZE = declare(
            "spend-batch-size", Kind.wholeNumber(1, 10_000), "256", "Most spends and reverts committed together.");
    public static final Setting<Duration> ACCOUNT_LOCK_WAIT = declare(
            "account-lock-wait-ms",
            Kind.millis(100, 60_000),
            "3000",
            "How long a change waits for an account whose lock is held elsewhere (another node, an outside"
                    + " session) before 503 account_busy; other accounts never wait for it.");
    public static final Setting<Duration> REQUEST_TIMEOUT = declare(
            "request-timeout-s",
            Kind.seconds(1, 3600),
            "60",
            "Longest a request may take from its first line to its response.");
    public static final Setting<Duration> IDLE_TIMEOUT =
            declare("idle-timeout-s", Kind.seconds(1, 3600), "30", "Closes keep-alive connections idle this long.");
    public static final Setting<Integer> MAX_CONNECTIONS =
            declare("max-connections", Kind.wholeNumber(1, 1_000_000), "10000", "Open connections at once.");
    public static final Setting<Integer> MAX_CONCURRENT_REQUESTS = declare(
            "max-concurrent-requests",
            Kind.wholeNumber(1, 1_000_000),
            "1000",
            "Requests in progress at once; beyond it 503 overloaded.");
    public static final Setting<Optional<String>> TLS_KEYSTORE = declare(
            "tls-keystore",
            Kind.optional(Kind.text("a readable PKCS12 keystore file", Settings::isReadableFile)),
            "",
            "A PKCS12 keystore: serve HTTPS with its key.");
    public static final Setting<Optional<String>> TLS_KEYSTORE_PASSWORD = declareSecret(
            "tls-keystore-password",
            Kind.optional(Kind.text("the keystore's password", password -> true)),
            "The password of the TLS keystore.");
    public static final Setting<Duration> HSTS_MAX_AGE = declare(
            "hsts-max-age-s",
            Kind.seconds(0, 2 * 365 * 24 * 3600),
            "31536000",
            "max-age of the Strict-Transport-Security header on every HTTPS response (0 tells browsers to forget it).");
    public static final Setting<Duration> IDEMPOTENCY_RETENTION = declare(
            "idempotency-retention-h", Kind.hours(24, 24 * 366), "24", "How long an Idempotency-Key is remembered.");
    public static final Setting<Boolean> PUBLIC_STATUS_PAGE =
            declare("public-status-page", Kind.bool(), "false", "Serves the public HTML status page at /status.");
    public static final Setting<Optional<String>> STATUS_PAGE_NAME = declare(
            "status-page-name",
            Kind.optional(Kind.text("1 to 100 printable characters", Settings::isPageName)),
            "",
            "The provider's name at the top of the status page and its feeds.");
    public static final Setting<Optional<String>> STATUS_PAGE_URL = declare(
            "status-page-url",
            Kind.optional(Kind.text("an http:// or https:// URL of at most 500 characters", Settings::isWebUrl)),
            "",
            "Where the provider's name on the status page links to, such as its home page.");
    // The status page grows up (CONTRACT §16, status-plus).
    public static final Setting<Language> STATUS_LANGUAGE = declare(
            "status-language",
            new Kind<>("one of " + Language.TAGS, Language::fromTag, false),
            "en",
            "The language of the status page, its badges, embed, feeds and mails.");
    public static final Setting<CorsOrigins> STATUS_EMBED_ORIGINS = declare(
            "status-embed-origins",
            new Kind<>(
                    "comma-separated origins such as https://www.example.com, * for any, or nothing",
                    CorsOrigins::parse,
                    false),
            "",
            "Sites whose pages may frame /status/embed (CSP frame-ancestors); none: no site may.");
    public static final Setting<Duration> UPSTREAM_POLL = declare(
            "upstream-poll-seconds",
            Kind.seconds(5, 3600),
            "60",
            "How often each service that follows an upstream status page reads it.");
    public static final Setting<HostAllowList> UPSTREAM_ALLOW_HTTP = declare(
            "upstream-allow-http",
            new Kind<>(
                    "comma-separated host names, IP addresses or CIDR ranges, or nothing", HostAllowList::parse, false),
            "",
            "Upstream status pages that may be read over plain http or at private, loopback or link-local addresses.");
    public static final Setting<Duration> EVENTS_POLL = declare(
            "events-poll-ms",
            Kind.millis(10, 60_000),
            "500",
            "How often a node reads new events for streams and webhooks, and checks for due maintenance steps.");
    public static final Setting<Duration> SSE_HEARTBEAT =
            declare("sse-heartbeat-ms", Kind.millis(100, 300_000), "15000", "Heartbeat interval of /api/pulse/stream.");
    public static final Setting<HostAllowList> WEBHOOK_ALLOW_PRIVATE = declare(
            "webhook-allow-private",
            new Kind<>(
                    "comma-separated host names, IP addresses or CIDR ranges, or nothing", HostAllowList::parse, false),
            "",
            "Webhook receivers (status webhook subscribers too) that may be at private, loopback or link-local"
                    + " addresses; none by default.");
    public static final Setting<Integer> WEBHOOK_MAX_ATTEMPTS = declare(
            "webhook-max-attempts", Kind.wholeNumber(1, 50), "12", "Attempts per webhook delivery before it fails.");
    public static final Setting<Duration> WEBHOOK_RETRY_BASE = declare(
            "webhook-retry-base-ms",
            Kind.millis(10, 3_600_000),
            "30000",
            "First webhook retry delay; doubles per attempt, with jitter, up to 1 h.");
    public static final Setting<Duration> WEBHOOK_TIMEOUT = declare(
            "webhook-timeout-ms",
            Kind.millis(100, 60_000),
            "10000",
            "Connect and response timeout of a webhook delivery.");

    public static final Setting<Integer> AUTH_FAILURES_PER_MINUTE = declare(
            "auth-failures-per-minute",
            Kind.wholeNumber(1, 1_000_000),
            "600",
            "Unknown keys one client address may send per minute; beyond it 429 without a key lookup.");
    public static final Setting<Duration> AUTH_FAILURE_HOLD = declare(
            "auth-failure-hold-ms",
            Kind.millis(0, 10_000),
            "1000",
            "How long a 429 for too many unknown keys is held before it is sent (0: at once), so that a"
                    + " flooding client waiting for its answers slows down.");
    public static final Setting<AddressRanges> TRUSTED_PROXIES = declare(
            "trusted-proxies",
            new Kind<>("comma-separated IP addresses or CIDR ranges, or nothing", AddressRanges::parse, false),
            "",
            "Proxies whose X-Forwarded-For names the client address and whose X-Forwarded-Proto: https marks"
                    + " the console cookie Secure; from any other peer both are ignored.");

    public static final Setting<CorsOrigins> CORS_ALLOWED_ORIGINS = declare(
            "cors-allowed-origins",
            new Kind<>(
                    "comma-separated origins such as https://app.example.com, * for any, or nothing",
                    CorsOrigins::parse,
                    false),
            "",
            "Browser origins whose pages may call /api/ (CORS); none: CORS is off.");
    public static final Setting<Boolean> ACCESS_LOG = declare(
            "access-log",
            Kind.bool(),
            "false",
            "Logs one line per request (never its key or query); 401 and 429 lines at most 10 a second.");

    public static final Setting<Optional<String>> REDIS_URL = declareSecret(
            "redis-url",
            Kind.optional(Kind.text(
                    "a redis:// or rediss:// URL",
                    url -> (url.startsWith("redis://") || url.startsWith("rediss://")) && url.length() <= 2000)),
            "Redis that shares plan rate limits across nodes; without it each node counts on its own.");

    // Status subscribers (issue 41): the mail server and sender of subscription mails and notices.
    @SuppressWarnings("OptionalMapToOptional") // the value is itself optional: empty when not given
    public static final Setting<Optional<SmtpUrl>> SMTP_URL = declareSecret(
            "smtp-url",
            new Kind<>(
                    "smtp://[user:password@]host[:port] (STARTTLS when offered) or smtps://… (implicit TLS), or"
                            + " nothing",
                    text -> text.isEmpty()
                            ? Optional.of(Optional.empty())
                            : SmtpUrl.parse(text).map(Optional::of),
                    false),
            "The mail server for status subscribers' mails; without it the subscribe form is hidden and"
                    + " POST /status/subscriptions is 404. The password is never logged.");

    public static final Setting<Optional<String>> MAIL_FROM = declare(
            "mail-from",
            Kind.optional(Kind.text("an email address such as status@example.com", MailAddresses::isSendable)),
            "",
            "The From address of status subscribers' mails; required with --smtp-url.");
    public static final Setting<Optional<String>> STATUS_BASE_URL = declare(
            "status-base-url",
            Kind.optional(Kind.text("an http:// or https:// URL of at most 500 characters", Settings::isWebUrl)),
            "",
            "The status page's public address (https://status.example.com), for the links in subscribers'"
                    + " mails; required with --smtp-url.");
    // Read replicas (CONTRACT §18): reads that may be a moment old go to a streaming replica within the lag.
    public static final Setting<List<String>> READ_DATABASE_URL = declare(
            "read-database-url",
            new Kind<>(
                    "comma-separated jdbc:postgresql: URLs of streaming replicas (at most " + ReplicaUrls.MAX_REPLICAS
                            + "), or nothing",
                    ReplicaUrls::parse,
                    false),
            "",
            "PostgreSQL streaming replicas that serve history, usage, the pulse, the status page, its feeds"
                    + " and console lists while their replay lag is within --max-replica-lag-ms; needs a"
                    + " PostgreSQL --database-url.");
    public static final Setting<Duration> MAX_REPLICA_LAG = declare(
            "max-replica-lag-ms",
            Kind.millis(100, 600_000),
            "1000",
            "How far behind the primary a replica may be to serve a read; beyond it the primary serves.");

    private Settings() {}

    /** Every declared setting, in declaration order (the order of the README table and of --help). */
    public static List<Setting<?>> all() {
        return List.copyOf(DECLARED);
    }

    private static <T> Setting<T> declare(String name, Kind<T> kind, String defaultValue, String help) {
        return add(new Setting<>(name, kind, defaultValue, help, false));
    }

    /** A setting with no default whose value is never shown. */
    private static <T> Setting<T> declareSecret(String name, Kind<T> kind, String help) {
        return add(new Setting<>(name, kind, "", help, true));
    }

    private static <T> Setting<T> add(Setting<T> setting) {
        DECLARED.add(setting);
        return setting;
    }

    private static boolean isAdminKey(String key) {
        return key.length() >= MIN_ADMIN_KEY_LENGTH
                && key.length() <= MAX_ADMIN_KEY_LENGTH
                && key.chars().allMatch(c -> c > 0x20 && c < 0x7f);
    }

    private static boolean isPageName(String name) {
        return name.length() <= 100 && !name.isBlank() && name.chars().noneMatch(Character::isISOControl);
    }

    private static boolean isWebUrl(String url) {
        try {
            URI uri = new URI(url);
            return url.length() <= 500
                    && ("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))
                    && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static boolean isReadableFile(String path) {
        try {
            return Files.isRegularFile(Path.of(path)) && Files.isReadable(Path.of(path));
        } catch (InvalidPathException e) {
            return false;
        }
    }
}
