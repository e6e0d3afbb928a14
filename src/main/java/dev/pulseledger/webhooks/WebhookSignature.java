package dev.pulseledger.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature header of a delivery: HMAC-SHA256, keyed with the webhook's secret, over {@code
 * timestamp + "." + body}. The timestamp lets receivers refuse replays of old deliveries; the
 * {@code v1} label leaves room for another scheme later. docs/WEBHOOKS.md shows how to verify it.
 */
public final class WebhookSignature {
    public static final String HEADER = "Pulseledger-Signature";

    private WebhookSignature() {}

    /** {@code t=<unix seconds>,v1=<hex HMAC>} */
    public static String header(String secret, long unixSeconds, String body) {
        return "t=" + unixSeconds + ",v1=" + hmacHex(secret, unixSeconds + "." + body);
    }

    private static String hmacHex(String secret, String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
