package dev.pulseledger.status.subscribers;

import dev.pulseledger.keys.Secrets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The tokens in subscribers' links: 256 random bits, URL-safe; only their SHA-256 is stored, so a
 * copy of the database confirms, manages or unsubscribes nobody.
 */
final class SubscriberTokens {
    private static final int TOKEN_BYTES = 32;
    private static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9_-]{43}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private SubscriberTokens() {}

    static String newToken() {
        byte[] bytes = new byte[TOKEN_BYTES];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The stored hash of a token from a link, or empty when it cannot be one of ours (no lookup then). */
    static Optional<String> hashOf(Optional<String> token) {
        return token.filter(t -> SHAPE.matcher(t).matches()).map(SubscriberTokens::hash);
    }

    static String hash(String token) {
        return Secrets.sha256Hex(token);
    }
}
