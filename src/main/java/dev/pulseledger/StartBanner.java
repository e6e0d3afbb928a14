package dev.pulseledger;

import java.io.PrintStream;
import java.util.Optional;

/**
 * What a node says on its console once it listens: where the API, the console, the status page, the API
 * docs and the metrics are, at the real address and port, and with {@code --demo} a curl that works as
 * pasted. The demo caller key is a secret, so it goes to the console only, never to the log.
 */
final class StartBanner {
    private StartBanner() {}

    /**
     * @param baseUrl the node's URL ending in "/", as a browser on this machine reaches it
     * @param adminKey how the admin key in force is described (never the key itself)
     * @param statusPage whether the public status page is served
     * @param demo the demo caller key issued on this start, if any
     */
    static void print(
            PrintStream console, String baseUrl, String adminKey, boolean statusPage, Optional<DemoSeed.Seeded> demo) {
        console.println();
        console.println("  Pulseledger is running at " + baseUrl);
        console.println();
        demo.ifPresentOrElse(
                seeded -> {
                    console.println(
                            "  A demo caller key for account " + seeded.accountId() + " (a new one each start):");
                    console.println();
                    console.println("    " + seeded.callerKey());
                    console.println();
                    console.println(
                            "    API          curl -H 'X-ApiKey: " + seeded.callerKey() + "' " + baseUrl + "api/pulse");
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
