package dev.pulseledger.keys;

import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Decides which admin keys a node accepts: the configured one if any; otherwise those stored in
 * the database, generating and printing one on the very first start.
 */
public final class AdminKeys {
    private AdminKeys() {}

    public static List<String> acceptedHashes(
            Optional<String> configuredKey, KeyStore keys, Clock clock, PrintStream console) {
        if (configuredKey.isPresent()) {
            return List.of(Secrets.sha256Hex(configuredKey.get()));
        }
        List<String> stored = keys.adminKeyHashes();
        if (!stored.isEmpty()) {
            return stored;
        }
        String generated = Secrets.newAdminKey();
        if (!keys.addFirstAdminKey(Secrets.sha256Hex(generated), clock.instant())) {
            return keys.adminKeyHashes();
        }
        console.println();
        console.println("  No admin key was configured, so one was generated. It is shown only now:");
        console.println();
        console.println("    " + generated);
        console.println();
        console.println("  Keep it safe. Set PULSELEDGER_ADMIN_KEY or --admin-key to use your own.");
        console.println();
        return List.of(Secrets.sha256Hex(generated));
    }
}
