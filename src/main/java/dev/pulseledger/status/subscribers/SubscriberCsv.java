package dev.pulseledger.status.subscribers;

import dev.pulseledger.http.Times;

/**
 * One subscriber as a CSV line (RFC 4180): fields quoted when they need it, and a field that a
 * spreadsheet would run as a formula ({@code = + - @}) prefixed with an apostrophe.
 */
final class SubscriberCsv {
    static final String HEADER = "id,type,email,url,services,status,created_at,confirmed_at\r\n";

    private SubscriberCsv() {}

    static String row(Subscriber s) {
        return String.join(
                        ",",
                        field(s.id()),
                        field(s.kind().wire()),
                        field(s.email().orElse("")),
                        field(s.url().orElse("")),
                        field(s.allServices() ? "*" : String.join(" ", s.services())),
                        field(SubscriberJson.status(s)),
                        field(Times.format(s.createdAt())),
                        field(s.confirmedAt().map(Times::format).orElse("")))
                + "\r\n";
    }

    static String field(String value) {
        String text = !value.isEmpty() && "=+-@".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
        if (text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r")) {
            return "\"" + text.replace("\"", "\"\"") + "\"";
        }
        return text;
    }
}
