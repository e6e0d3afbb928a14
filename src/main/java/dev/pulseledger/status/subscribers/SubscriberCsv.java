package dev.pulseledger.status.subscribers;

import dev.pulseledger.http.Times;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Every subscriber as CSV (RFC 4180), one line each: fields quoted when they need it, and a field that a
 * spreadsheet would run as a formula (starting with {@code = + - @}, a tab or a carriage return)
 * prefixed with an apostrophe. The operator API and the console send the same file.
 */
public final class SubscriberCsv {
    static final String HEADER = "id,type,email,url,services,status,created_at,confirmed_at\r\n";

    /** The characters that make a spreadsheet read a cell as a formula (OWASP's CSV injection list). */
    private static final String FORMULA_STARTS = "=+-@\t\r";

    private SubscriberCsv() {}

    /** Writes the whole list as a download, page by page, never holding it all at once. */
    public static void send(ServerResponse res, SubscriberDirectory directory) {
        res.header("Content-Type", "text/csv; charset=utf-8");
        res.header("Content-Disposition", "attachment; filename=\"status-subscribers.csv\"");
        res.header("Cache-Control", "no-store");
        try (OutputStream out = res.outputStream()) {
            out.write(HEADER.getBytes(StandardCharsets.UTF_8));
            directory.forEach(subscriber -> {
                try {
                    out.write(row(subscriber).getBytes(StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

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
        String text = !value.isEmpty() && FORMULA_STARTS.indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
        if (text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r")) {
            return "\"" + text.replace("\"", "\"\"") + "\"";
        }
        return text;
    }
}
