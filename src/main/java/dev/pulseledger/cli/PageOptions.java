package dev.pulseledger.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** {@code --limit} and {@code --cursor} of the commands that list a cursor-paged collection. */
final class PageOptions {
    @Option(names = "--limit", paramLabel = "N", description = "Items per page, 1 to 100 (the service's default: 20).")
    @Nullable
    Integer limit;

    @Option(names = "--cursor", paramLabel = "CURSOR", description = "The cursor a previous page printed.")
    @Nullable
    String cursor;

    /** The query string for a path, empty when neither option is given. */
    String query() {
        List<String> parameters = new ArrayList<>();
        if (limit != null) {
            parameters.add("limit=" + limit);
        }
        if (cursor != null) {
            parameters.add("cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
        }
        return parameters.isEmpty() ? "" : "?" + String.join("&", parameters);
    }
}
