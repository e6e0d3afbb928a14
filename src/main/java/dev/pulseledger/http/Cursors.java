package dev.pulseledger.http;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/** Opaque page cursors: the position of the last item, versioned and base64url-encoded. */
public final class Cursors {
    private static final String VERSION = "v1:";
    private static final int MAX_CURSOR_LENGTH = 200;

    private Cursors() {}

    public static String encode(String position) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((VERSION + position).getBytes(StandardCharsets.UTF_8));
    }

    /** The position in the {@code cursor} query parameter, or empty when there is none. */
    public static Optional<String> position(Optional<String> cursor) {
        if (cursor.isEmpty()) {
            return Optional.empty();
        }
        String text = cursor.get();
        try {
            if (text.isEmpty() || text.length() > MAX_CURSOR_LENGTH) {
                throw invalid();
            }
            String decoded = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
            if (!decoded.startsWith(VERSION) || decoded.chars().anyMatch(Character::isISOControl)) {
                throw invalid();
            }
            return Optional.of(decoded.substring(VERSION.length()));
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
    }

    /** A cursor over a numeric sequence: positive whole numbers only. */
    public static long sequence(Optional<String> cursor, long first) {
        Optional<String> position = position(cursor);
        if (position.isEmpty()) {
            return first;
        }
        try {
            long sequence = Long.parseLong(position.get());
            if (sequence > 0) {
                return sequence;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw invalid();
    }

    public static ProblemException invalid() {
        return new ProblemException(
                ProblemCode.INVALID_CURSOR, "Query parameter 'cursor' is not a cursor this API gave out.");
    }
}
