package dev.pulseledger.config;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** Every setting of a running node, parsed and checked before the server opens a port. */
public final class Config {
    private final Map<Setting<?>, Object> values;

    private Config(Map<Setting<?>, Object> values) {
        this.values = Map.copyOf(values);
    }

    /**
     * Reads every declared setting from {@code given} (the flag, else the environment variable), or
     * else its default, and checks it; the first bad one stops here with a message naming it.
     */
    public static Config read(Function<Setting<?>, Optional<String>> given) {
        Map<Setting<?>, Object> values = new HashMap<>();
        for (Setting<?> setting : Settings.all()) {
            values.put(setting, setting.parse(given.apply(setting).orElse(setting.defaultValue())));
        }
        Config config = new Config(values);
        config.tls();
        config.mail();
        config.readReplicas();
        return config;
    }

    /** The checked value of a declared setting. */
    @SuppressWarnings("unchecked") // read(...) stores for each Setting<T> the T its parse returned
    public <T> T get(Setting<T> setting) {
        if (!values.containsKey(setting)) {
            throw new IllegalArgumentException(setting.flag() + " is not declared in Settings");
        }
        return (T) values.get(setting);
    }

    /** Where the TLS key lives, when HTTPS is on; a keystore and its password come together. */
    public Optional<TlsKeystore> tls() {
        Optional<String> keystore = get(Settings.TLS_KEYSTORE);
        Optional<String> password = get(Settings.TLS_KEYSTORE_PASSWORD);
        if (keystore.isEmpty() && password.isPresent()) {
            throw Settings.TLS_KEYSTORE.invalid("", "a PKCS12 keystore file, since a keystore password is set");
        }
        if (keystore.isPresent() && password.isEmpty()) {
            throw Settings.TLS_KEYSTORE_PASSWORD.invalid("", "the keystore's password");
        }
        return keystore.map(path -> new TlsKeystore(Path.of(path), password.orElseThrow()));
    }

    /** How status subscribers' mail is sent, when a mail server is set; its three settings come together. */
    public Optional<MailSettings> mail() {
        Optional<SmtpUrl> smtp = get(Settings.SMTP_URL);
        Optional<String> from = get(Settings.MAIL_FROM);
        Optional<String> baseUrl = get(Settings.STATUS_BASE_URL);
        if (smtp.isEmpty()) {
            if (from.isPresent()) {
                throw Settings.SMTP_URL.invalid("", "a mail server, since --mail-from is set");
            }
            return Optional.empty();
        }
        if (from.isEmpty()) {
            throw Settings.MAIL_FROM.invalid("", "the From address of subscribers' mails, since --smtp-url is set");
        }
        if (baseUrl.isEmpty()) {
            throw Settings.STATUS_BASE_URL.invalid(
                    "", "the status page's public address for the links in mails, since --smtp-url is set");
        }
        return Optional.of(new MailSettings(smtp.get(), from.get(), baseUrl.get()));
    }

    /** The read replicas' URLs; they need a PostgreSQL primary, whose WAL position measures their lag. */
    public List<String> readReplicas() {
        List<String> urls = get(Settings.READ_DATABASE_URL);
        if (!urls.isEmpty() && !get(Settings.DATABASE_URL).startsWith("jdbc:postgresql:")) {
            throw new ConfigException("Invalid setting " + Settings.READ_DATABASE_URL.flag() + " / "
                    + Settings.READ_DATABASE_URL.env() + ": read replicas need a PostgreSQL "
                    + Settings.DATABASE_URL.flag() + ".");
        }
        return urls;
    }

    public ServerLimits serverLimits() {
        return new ServerLimits(
                get(Settings.REQUEST_TIMEOUT),
                get(Settings.IDLE_TIMEOUT),
                get(Settings.MAX_CONNECTIONS),
                get(Settings.MAX_CONCURRENT_REQUESTS));
    }

    public EventSettings events() {
        return new EventSettings(
                get(Settings.EVENTS_POLL),
                get(Settings.SSE_HEARTBEAT),
                get(Settings.WEBHOOK_MAX_ATTEMPTS),
                get(Settings.WEBHOOK_RETRY_BASE),
                get(Settings.WEBHOOK_TIMEOUT));
    }
}
