package dev.pulseledger.status.badges;

import dev.pulseledger.status.services.ServiceStatus;
import java.util.Locale;
import java.util.Optional;
import org.owasp.encoder.Encode;

/**
 * Draws a shields.io-style badge: a grey label on the left, the status in its colour on the right.
 * Every text is XML-escaped and the drawing holds no script, link or foreign object, so it is safe
 * to show from any site. Widths are estimated from the characters (no font at hand on a server).
 */
public final class BadgeSvg {
    /** Longest label a visitor may ask for with {@code ?label=}. */
    public static final int MAX_LABEL_LENGTH = 40;

    /** How the badge is drawn: rounded with a gloss, or square and flat. */
    public enum Style {
        FLAT,
        FLAT_SQUARE;

        public static Optional<Style> fromWire(String text) {
            return switch (text) {
                case "flat" -> Optional.of(FLAT);
                case "flat-square" -> Optional.of(FLAT_SQUARE);
                default -> Optional.empty();
            };
        }
    }

    private static final int HEIGHT = 20;
    private static final int PADDING = 6;

    private BadgeSvg() {}

    public static String render(String label, String message, ServiceStatus status, Style style) {
        int labelWidth = width(label) + 2 * PADDING;
        int messageWidth = width(message) + 2 * PADDING;
        int total = labelWidth + messageWidth;
        String title = Encode.forXml(label + ": " + message);
        boolean flat = style == Style.FLAT;
        StringBuilder svg = new StringBuilder(1024);
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(total)
                .append("\" height=\"")
                .append(HEIGHT)
                .append("\" role=\"img\" aria-label=\"")
                .append(Encode.forXmlAttribute(label + ": " + message))
                .append("\">")
                .append("<title>")
                .append(title)
                .append("</title>");
        if (flat) {
            svg.append("<linearGradient id=\"s\" x2=\"0\" y2=\"100%\"><stop offset=\"0\" stop-color=\"#bbb\"")
                    .append(" stop-opacity=\".1\"/><stop offset=\"1\" stop-opacity=\".1\"/></linearGradient>")
                    .append("<clipPath id=\"r\"><rect width=\"")
                    .append(total)
                    .append("\" height=\"20\" rx=\"3\" fill=\"#fff\"/></clipPath>");
        }
        svg.append(flat ? "<g clip-path=\"url(#r)\">" : "<g shape-rendering=\"crispEdges\">")
                .append("<rect width=\"")
                .append(labelWidth)
                .append("\" height=\"20\" fill=\"#555\"/><rect x=\"")
                .append(labelWidth)
                .append("\" width=\"")
                .append(messageWidth)
                .append("\" height=\"20\" fill=\"")
                .append(colour(status))
                .append("\"/>");
        if (flat) {
            svg.append("<rect width=\"").append(total).append("\" height=\"20\" fill=\"url(#s)\"/>");
        }
        svg.append("</g><g fill=\"#fff\" text-anchor=\"middle\"")
                .append(" font-family=\"Verdana,Geneva,DejaVu Sans,sans-serif\" font-size=\"11\">")
                .append(text(labelWidth / 2.0, label))
                .append(text(labelWidth + messageWidth / 2.0, message))
                .append("</g></svg>\n");
        return svg.toString();
    }

    private static String text(double x, String content) {
        String position = String.format(Locale.ROOT, "%.1f", x);
        String escaped = Encode.forXml(content);
        return "<text x=\"" + position + "\" y=\"15\" fill=\"#010101\" fill-opacity=\".3\">" + escaped
                + "</text><text x=\"" + position + "\" y=\"14\">" + escaped + "</text>";
    }

    /** Shields' colours: green, yellow, orange, red, blue for maintenance, grey when unknown. */
    static String colour(ServiceStatus status) {
        return switch (status) {
            case OPERATIONAL -> "#2e7d32";
            case DEGRADED_PERFORMANCE -> "#8a6d00";
            case PARTIAL_OUTAGE -> "#c2410c";
            case MAJOR_OUTAGE -> "#c62828";
            case UNDER_MAINTENANCE -> "#1565c0";
            case UNKNOWN -> "#616161";
        };
    }

    /** Verdana 11 px: about 7 px a Latin character, 11 px a wide (CJK) one. */
    static int width(String text) {
        return text.codePoints()
                .map(cp -> Character.UnicodeScript.of(cp) == Character.UnicodeScript.LATIN || cp < 0x2E80 ? 7 : 12)
                .sum();
    }
}
