package dev.pulseledger.support;

import dev.pulseledger.Application;
import dev.pulseledger.ServeCommand;
import dev.pulseledger.config.Config;
import dev.pulseledger.config.Settings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** One real Pulseledger node on a free port, for tests; several may share one database URL. */
public final class TestNode implements AutoCloseable {
    public static final String ADMIN_KEY = "test-admin-key-0123456789";

    private final Application application;
    private final String databaseUrl;
    private final ByteArrayOutputStream console;

    private TestNode(Application application, String databaseUrl, ByteArrayOutputStream console) {
        this.application = application;
        this.databaseUrl = databaseUrl;
        this.console = console;
    }

    public static TestNode start(String databaseUrl, String... extraFlags) {
        return start(config(databaseUrl, extraFlags));
    }

    public static TestNode start(Config config) {
        return start(config, Clock.systemUTC());
    }

    /** A node whose rules read the time from {@code clock} (periods, expiries, key expiry). */
    public static TestNode start(String databaseUrl, Clock clock, String... extraFlags) {
        return start(config(databaseUrl, extraFlags), clock);
    }

    /** A node whose time comes from {@code clock}, so a test can move it. */
    public static TestNode start(Config config, Clock clock) {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        Application application =
                Application.start(config, new PrintStream(console, true, StandardCharsets.UTF_8), clock);
        return new TestNode(application, config.get(Settings.DATABASE_URL), console);
    }

    /**
     * The settings tests use: port 0 on loopback, a known admin key, the given database, webhooks allowed to
     * reach loopback (unless the flags say otherwise), then any further {@code serve} flags, parsed exactly as
     * the command line is.
     */
    public static Config config(String databaseUrl, String... extraFlags) {
        List<String> flags = new ArrayList<>(
                List.of("--host", "127.0.0.1", "--port", "0", "--admin-key", ADMIN_KEY, "--database-url", databaseUrl));
        if (!List.of(extraFlags).contains("--webhook-allow-private")) {
            // The tests' webhook receivers listen on loopback, which a node refuses unless allowed.
            flags.addAll(List.of("--webhook-allow-private", "127.0.0.1"));
        }
        flags.addAll(List.of(extraFlags));
        return ServeCommand.parseConfig(flags.toArray(String[]::new));
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + application.port();
    }

    public String databaseUrl() {
        return databaseUrl;
    }

    public Application application() {
        return application;
    }

    /** What the node printed on its console (one-time secrets). */
    public String console() {
        return console.toString(StandardCharsets.UTF_8);
    }

    public Api admin() {
        return new Api(baseUrl(), ADMIN_KEY);
    }

    public Api caller(String key) {
        return new Api(baseUrl(), key);
    }

    public Api anonymous() {
        return new Api(baseUrl(), null);
    }

    @Override
    public void close() {
        application.close();
    }
}
