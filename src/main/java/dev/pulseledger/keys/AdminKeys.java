package dev.pulseledger.keys;

import java.io.PrintStream;
import java.time.Clock;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Decides which admin keys a node accepts: the configured one if any; otherwise those stored in
 * the database, generating and printing one on the very first start.
 */
public final class AdminKeys {
    /** How an operator who lost the admin key gets a new one; said at every start. */
    public static final String REPLACE_LOST_KEY = "Lost it? Restart with --admin-key <new key of 16+ characters>"
            + " (or PULSELEDGER_ADMIN_KEY): a configured key acts for the first owner; then revoke the lost key"
            + " with DELETE /admin/operators/{operatorId}/keys/{keyId}.";

    private static final String GENERATED_PREFIX = "pl_admin_";

    /**
     * The hash of the configured key if any (it acts for the first owner, beside every operator's stored
     * keys), and a description of the key in force that never holds the key.
     */
    public record InForce(Optional<String> configuredHash, String description) {}

    private AdminKeys() {}

    public static InForce accepted(Optional<String> configuredKey, KeyStore keys, Clock clock, PrintStream console) {
        if (configuredKey.isPresent()) {
            return new InForce(
                    Optional.of(Secrets.sha256Hex(configuredKey.get())),
                    "the configured key (--admin-key / PULSELEDGER_ADMIN_KEY) " + shown(configuredKey.get()));
        }
        if (keys.adminKeyHashes().isEmpty()) {
            String generated = Secrets.newAdminKey();
            if (keys.addFirstAdminKey(Secrets.sha256Hex(generated), prefix(generated), clock.instant())) {
                console.println();
                console.println("  No admin key was configured, so one was generated. It is shown only now:");
                console.println();
                console.println("    " + generated);
                console.println();
                console.println("  Keep it safe. Set PULSELEDGER_ADMIN_KEY or --admin-key to use your own.");
                console.println();
            }
        }
        String prefixes = keys.adminKeyPrefixes().stream()
                .map(prefix -> prefix.map(p -> p + "…").orElse("(prefix not recorded)"))
                .collect(Collectors.joining(", "));
        return new InForce(Optional.empty(), "the key generated on first start, stored as a hash: " + prefixes);
    }

    private static String shown(String key) {
        return prefix(key) + "…";
    }

    /**
     * Enough of a key to tell which one it is, too little to matter: a generated key's "pl_admin_"
     * and 4 of its 32 random characters; an operator's own key (16 characters or more), its first 4.
     */
    static String prefix(String key) {
        return key.substring(0, key.startsWith(GENERATED_PREFIX) ? GENERATED_PREFIX.length() + 4 : 4);
    }
}
