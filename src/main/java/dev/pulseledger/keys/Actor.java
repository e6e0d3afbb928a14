package dev.pulseledger.keys;

/**
 * The operator behind an admin request, and what they used: an admin key ({@code via} "key",
 * {@code credential} its id) or a console session ({@code via} "session", a short reference to it).
 */
public record Actor(String operatorId, String operatorName, Role role, String via, String credential) {
    public static final String VIA_KEY = "key";
    public static final String VIA_SESSION = "session";
}
