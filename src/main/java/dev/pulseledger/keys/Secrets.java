package dev.pulseledger.keys;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/** Generates high-entropy keys and the SHA-256 hashes that are all we keep of them. */
public final class Secrets {
    private static final char[] BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    /** 32 base-62 characters carry about 190 bits, well above the contract's 128. */
    private static final int RANDOM_CHARS = 32;
    /** Standard Webhooks asks for 24 to 64 bytes of key. */
    private static final int WEBHOOK_KEY_BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final MessageDigest SHA_256 = sha256Prototype();

    private Secrets() {}

    /** A caller key: {@code pl_} and 32 random base-62 characters. */
    public static String newCallerKey() {
        return "pl_" + randomText();
    }

    /** An admin key, distinguishable at a glance from a caller key. */
    public static String newAdminKey() {
        return "pl_admin_" + randomText();
    }

    /**
     * A webhook signing secret as Standard Webhooks writes one: {@code whsec_} and the base64 of 32
     * random bytes. Shown once, then kept only to sign deliveries.
     */
    public static String newWebhookSecret() {
        byte[] key = new byte[WEBHOOK_KEY_BYTES];
        RANDOM.nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }

    private static String randomText() {
        StringBuilder text = new StringBuilder(RANDOM_CHARS);
        for (int i = 0; i < RANDOM_CHARS; i++) {
            text.append(BASE62[RANDOM.nextInt(BASE62.length)]);
        }
        return text.toString();
    }

    public static String sha256Hex(String key) {
        return HexFormat.of().formatHex(sha256(key));
    }

    private static byte[] sha256(String key) {
        try {
            // Every request hashes its key; cloning a digest skips getInstance's provider lookup.
            MessageDigest digest = (MessageDigest) SHA_256.clone();
            return digest.digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("The JDK's SHA-256 digest can be cloned", e);
        }
    }

    private static MessageDigest sha256Prototype() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Compares two hex hashes in time independent of where they differ. */
    public static boolean sameHash(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.US_ASCII), b.getBytes(StandardCharsets.US_ASCII));
    }

    /** The part of a key safe to show again: enough to recognise it, useless to an attacker. */
    public static String displayPrefix(String key) {
        return key.substring(0, Math.min(key.length(), 10));
    }
}
