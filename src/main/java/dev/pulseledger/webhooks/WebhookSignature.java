package dev.pulseledger.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs a delivery as the Standard Webhooks specification says, so receivers can verify it with the
 * official libraries: {@code webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>}, keyed
 * with the base64-decoded part of the {@code whsec_} secret. The older {@code Pulseledger-Signature}
 * header (hex HMAC keyed with the whole secret as text) is still sent, for receivers that have not
 * moved yet; docs/WEBHOOKS.md tells them how to.
 */
public final class WebhookSignature {
    public static final String ID = "webhook-id";
    public static final String TIMESTAMP = "webhook-timestamp";
    public static final String SIGNATURE = "webhook-signature";
    /** Deprecated: kept while receivers move to {@link #SIGNATURE}. */
    public static final String LEGACY_HEADER = "Pulseledger-Signature";

    private static final String SECRET_PREFIX = "whsec_";

    private WebhookSignature() {}

    /** {@code v1,<base64 HMAC>} of {@code id.timestamp.body}. */
    public static String standard(String secret, String messageId, long unixSeconds, String body) {
        byte[] key = Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
        return "v1," + Base64.getEncoder().encodeToString(hmac(key, messageId + "." + unixSeconds + "." + body));
    }

    /** {@code t=<unix seconds>,v1=<hex HMAC>} of {@code timestamp.body}, keyed with the secret's text. */
    public static String legacy(String secret, long unixSeconds, String body) {
        byte[] key = secret.getBytes(StandardCharsets.UTF_8);
        return "t=" + unixSeconds + ",v1=" + HexFormat.of().formatHex(hmac(key, unixSeconds + "." + body));
    }

    private static byte[] hmac(byte[] key, String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
