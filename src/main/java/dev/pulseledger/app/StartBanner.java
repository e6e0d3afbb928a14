package dev.pulseledger.app;

import dev.pulseledger.config.Config;
import dev.pulseledger.config.Settings;
import java.io.PrintStream;
import java.util.Optional;

/**
 * What a node says on its console once it listens: where the API, the console, the status page, the API
 * docs and the metrics are, at the real address and port, and with {@code --demo} a curl that works as
 * pasted. The demo caller key is a secret, so it goes to the console only, never to the log.
 */
public final class StartBanner {
    private final Optional<DemoSeed> demo;
    private final boolean statusPage;
    private final String adminKey;

    /**
     * @param adminKey how the admin key in force is described (never the key itself)
     */
    StartBanner(Optional<DemoSeed> demo, boolean statusPage, String adminKey) {
        this.demo = demo;
        this.statusPage = statusPage;
        // The console may be a terminal without UTF-8 (a bare POSIX locale), where the ellipsis would print as "?".
        this.adminKey = adminKey.replace("\u2026", "...");
    }

    /** Whether the node serves the public status page: asked for, or shown with the demo. */
    static boolean servesStatusPage(Config config) {
        return config.get(Settings.PUBLIC_STATUS_PAGE) || config.get(Settings.DEMO);
    }

    /** Prints the URLs under {@code baseUrl} (the node's URL ending in "/", as a browser here reaches it). */
    public void print(PrintStream console, String baseUrl) {
        console.println();
        console.println("  Pulseledger is running at " + baseUrl);
        console.println();
        demo.flatMap(DemoSeed::seeded)
                .ifPresentOrElse(
                        seeded -> {
                            console.println("  A demo caller key for account " + seeded.accountId()
                                    + " (a new one each start):");
                            console.println();
                            console.println("    " + seeded.callerKey());
                            console.println();
                            console.println("    API          curl -H 'X-ApiKey: " + seeded.callerKey() + "' " + baseUrl
                                    + "api/pulse");
                        },
                        () -> console.println("    API          " + baseUrl + "api/pulse (with an X-ApiKey header)"));
        console.println("    Console      " + baseUrl + "console (sign in with the admin key: " + adminKey + ")");
        console.println("    Status page  " + baseUrl
                + (statusPage ? "status" : "status (off: start with --public-status-page to serve it)"));
        console.println("    API docs     " + baseUrl + "docs");
        console.println("    Metrics      " + baseUrl + "metrics");
        console.println();
    }
}
