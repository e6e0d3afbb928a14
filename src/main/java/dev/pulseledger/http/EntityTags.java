package dev.pulseledger.http;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Strong entity tags made from a body's hash, and the weak comparison that If-None-Match uses. */
public final class EntityTags {
    /** 128 bits of SHA-256: no two bodies a node serves will share a tag by chance. */
    private static final int TAG_BYTES = 16;

    private EntityTags() {}

    /** A strong tag such as {@code "3f2a…"} that changes whenever the body does. */
    public static String of(byte[] body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body);
            return "\"" + HexFormat.of().formatHex(digest, 0, TAG_BYTES) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The tag of another encoding of the same body: {@code "3f2a…"} becomes {@code "3f2a…-gzip"}. */
    public static String variant(String etag, String encoding) {
        return etag.substring(0, etag.length() - 1) + "-" + encoding + "\"";
    }

    /**
     * Whether an If-None-Match value names {@code etag} (RFC 9110 §13.1.2): {@code *}, or a
     * comma-separated list of tags compared weakly, so {@code W/"x"} matches {@code "x"}. A malformed
     * value matches nothing, so the client simply gets the full response.
     */
    public static boolean noneMatchNames(String ifNoneMatch, String etag) {
        String value = ifNoneMatch.strip();
        if (value.equals("*")) {
            return true;
        }
        String wanted = opaque(etag);
        int i = 0;
        while (i < value.length()) {
            char c = value.charAt(i);
            if (c == ',' || c == ' ' || c == '\t') {
                i++;
                continue;
            }
            if (value.startsWith("W/", i)) {
                i += 2;
            }
            if (i >= value.length() || value.charAt(i) != '"') {
                return false;
            }
            int close = value.indexOf('"', i + 1);
            if (close < 0) {
                return false;
            }
            if (value.substring(i, close + 1).equals(wanted)) {
                return true;
            }
            i = close + 1;
        }
        return false;
    }

    /** The quoted part of a tag, without any weakness prefix. */
    private static String opaque(String etag) {
        return etag.startsWith("W/") ? etag.substring(2) : etag;
    }
}
