package dev.pulseledger.operators;

import com.eatthepath.otp.TimeBasedOneTimePasswordGenerator;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.util.encoders.Base32;

/**
 * RFC 6238 codes (java-otp): 6 digits, 30-second steps, HMAC-SHA1 as authenticator apps expect. A code
 * of the step before or after the current one is accepted too, for clocks a little apart; which step
 * matched is returned so the caller can refuse that step and earlier ones next time.
 */
public final class Totp {
    public static final Duration STEP = Duration.ofSeconds(30);
    /** Steps either side of now whose codes are accepted. */
    public static final int WINDOW_STEPS = 1;

    private static final int SECRET_BYTES = 20;
    private static final Pattern CODE = Pattern.compile("[0-9]{6}");
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final TimeBasedOneTimePasswordGenerator GENERATOR =
            new TimeBasedOneTimePasswordGenerator(STEP, 6, TimeBasedOneTimePasswordGenerator.TOTP_ALGORITHM_HMAC_SHA1);

    private Totp() {}

    /** A new secret, base32 as authenticator apps take it. */
    public static String newSecret() {
        byte[] secret = new byte[SECRET_BYTES];
        RANDOM.nextBytes(secret);
        return Base32.toBase32String(secret);
    }

    /** The URI an authenticator app reads (from a QR code or typed), naming the service and the operator. */
    public static String uri(String secret, String issuer, String account) {
        String label = encode(issuer) + ":" + encode(account);
        return "otpauth://totp/" + label + "?secret=" + secret + "&issuer=" + encode(issuer)
                + "&algorithm=SHA1&digits=6&period=" + STEP.toSeconds();
    }

    /** The code for {@code at}; tests and the enrolment check use it. */
    public static String code(String secret, Instant at) {
        try {
            return GENERATOR.generateOneTimePasswordString(key(secret), at);
        } catch (InvalidKeyException e) {
            throw new IllegalStateException("A stored TOTP secret is not a usable HMAC key", e);
        }
    }

    /** The time step whose code {@code code} is, within the window around {@code now}; empty if none. */
    public static OptionalLong matchingStep(String secret, String code, Instant now) {
        if (!CODE.matcher(code).matches()) {
            return OptionalLong.empty();
        }
        long current = step(now);
        for (long step = current - WINDOW_STEPS; step <= current + WINDOW_STEPS; step++) {
            Instant at = Instant.ofEpochSecond(step * STEP.toSeconds());
            if (constantTimeEquals(code(secret, at), code)) {
                return OptionalLong.of(step);
            }
        }
        return OptionalLong.empty();
    }

    public static long step(Instant at) {
        return Math.floorDiv(at.getEpochSecond(), STEP.toSeconds());
    }

    private static boolean constantTimeEquals(String a, String b) {
        return java.security.MessageDigest.isEqual(
                a.getBytes(StandardCharsets.US_ASCII), b.getBytes(StandardCharsets.US_ASCII));
    }

    private static Key key(String secret) {
        return new SecretKeySpec(Base32.decode(secret), "HmacSHA1");
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
