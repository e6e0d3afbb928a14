package dev.pulseledger.http;

/** A short, escaped excerpt of client input, safe to put into a problem detail. */
public final class Excerpt {
    /** Longer input is cut here and marked with an ellipsis. */
    public static final int MAX_CHARS = 40;

    private Excerpt() {}

    /** Printable ASCII as is, anything else as a JSON-style escape, at most {@link #MAX_CHARS} characters. */
    public static String of(String input) {
        StringBuilder excerpt = new StringBuilder();
        for (int i = 0; i < input.length() && i < MAX_CHARS; i++) {
            char c = input.charAt(i);
            if (c >= 0x20 && c < 0x7f && c != '\\') {
                excerpt.append(c);
            } else {
                excerpt.append(String.format("\\u%04x", (int) c));
            }
        }
        return input.length() > MAX_CHARS ? excerpt.append('…').toString() : excerpt.toString();
    }
}
