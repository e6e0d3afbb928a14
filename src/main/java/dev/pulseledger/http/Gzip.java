package dev.pulseledger.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * Gzip for bodies rendered once and sent many times: compressed when rendered, never per request, and
 * sent compressed only to a client whose Accept-Encoding allows it (RFC 9110 §12.5.3).
 */
public final class Gzip {
    /** Below this a body fits in a packet or two anyway, and gzip's header is not worth it. */
    static final int MIN_BODY_BYTES = 1_024;

    /** A weight as RFC 9110 §12.4.2 writes it: 0 to 1, at most three decimals. */
    private static final Pattern WEIGHT = Pattern.compile("0(\\.\\d{0,3})?|1(\\.0{0,3})?");

    private Gzip() {}

    /** The body gzipped, when it is long enough and gzip makes it smaller. */
    public static Optional<byte[]> compress(byte[] body) {
        if (body.length < MIN_BODY_BYTES) {
            return Optional.empty();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 4);
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(body);
        } catch (IOException e) {
            throw new UncheckedIOException("Gzip into memory failed", e);
        }
        byte[] compressed = out.toByteArray();
        return compressed.length < body.length ? Optional.of(compressed) : Optional.empty();
    }

    /**
     * Whether an Accept-Encoding value allows gzip: it names {@code gzip} (or {@code x-gzip}) or {@code
     * *} with a weight above zero, and does not refuse gzip by name with {@code q=0}. An empty or
     * malformed value allows nothing but the identity encoding.
     */
    public static boolean accepted(String acceptEncoding) {
        boolean named = false;
        boolean allowedByName = false;
        boolean allowedByWildcard = false;
        for (String member : acceptEncoding.split(",", -1)) {
            String[] parts = member.split(";", -1);
            String coding = parts[0].strip().toLowerCase(Locale.ROOT);
            if (coding.equals("gzip") || coding.equals("x-gzip")) {
                named = true;
                allowedByName |= weightAboveZero(parts);
            } else if (coding.equals("*")) {
                allowedByWildcard |= weightAboveZero(parts);
            }
        }
        return named ? allowedByName : allowedByWildcard;
    }

    /** {@code q} of a member's parameters (1 when absent); a malformed weight counts as zero. */
    private static boolean weightAboveZero(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].strip().toLowerCase(Locale.ROOT);
            if (parameter.startsWith("q=")) {
                String weight = parameter.substring(2).strip();
                if (!WEIGHT.matcher(weight).matches()) {
                    return false;
                }
                return Double.parseDouble(weight) > 0;
            }
        }
        return true;
    }
}
