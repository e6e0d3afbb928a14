package dev.pulseledger.status.page;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** WCAG 2 contrast ratio of two CSS colours as a browser reports them ({@code rgb(…)} / {@code rgba(…)}). */
final class Contrast {
    private static final Pattern RGB = Pattern.compile("rgba?\\((\\d+),\\s*(\\d+),\\s*(\\d+)(?:,\\s*([\\d.]+))?\\)");

    private Contrast() {}

    static double ratio(String foreground, String background) {
        double a = luminance(foreground);
        double b = luminance(background);
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    }

    private static double luminance(String cssColour) {
        Matcher m = RGB.matcher(cssColour);
        if (!m.matches() || (m.group(4) != null && Double.parseDouble(m.group(4)) < 1)) {
            throw new AssertionError("Expected an opaque rgb colour, got " + cssColour);
        }
        return 0.2126 * channel(m.group(1)) + 0.7152 * channel(m.group(2)) + 0.0722 * channel(m.group(3));
    }

    private static double channel(String value) {
        double c = Integer.parseInt(value) / 255.0;
        return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    }
}
