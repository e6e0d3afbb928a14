package dev.pulseledger.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** How a successful answer is shown to a person; {@code --json} prints the body as sent instead. */
@FunctionalInterface
interface Output {
    /** Longest cell a table shows; longer values are cut with an ellipsis. */
    int MAX_CELL_CHARS = 48;

    void print(JsonNode body, PrintWriter out);

    /**
     * One table column: its heading, the JSON field it shows ({@code a/b} for field b inside a), and how it
     * shows it.
     */
    record Column(String heading, String field, Function<JsonNode, String> format) {}

    static Column column(String heading, String field) {
        return new Column(heading, field, Output::text);
    }

    /** A column of an array of objects, each shown as {@code item} shows it, space separated. */
    static Column listColumn(String heading, String field, Function<JsonNode, String> item) {
        return new Column(heading, field, array -> {
            List<String> items = new ArrayList<>();
            array.forEach(element -> items.add(printable(item.apply(element))));
            return items.isEmpty() ? "-" : String.join(" ", items);
        });
    }

    /** One object, one {@code field: value} line per field, in the order the service sent them. */
    static Output record() {
        return (body, out) -> {
            int width = 0;
            for (Map.Entry<String, JsonNode> field : body.properties()) {
                width = Math.max(width, field.getKey().length());
            }
            for (Map.Entry<String, JsonNode> field : body.properties()) {
                out.println(pad(field.getKey() + ":", width + 1) + " " + text(field.getValue()));
            }
        };
    }

    /** The {@code data} array as a table, then how to get the next page when there is one. */
    static Output table(Column... columns) {
        return (body, out) -> {
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of(columns).stream().map(Column::heading).toList());
            for (JsonNode item : body.path("data")) {
                rows.add(List.of(columns).stream()
                        .map(column -> cut(column.format().apply(item.at("/" + column.field()))))
                        .toList());
            }
            if (rows.size() == 1) {
                out.println("(none)");
            } else {
                printRows(rows, out);
            }
            String next = body.path("nextCursor").asText("");
            if (!next.isEmpty()) {
                out.println("More: repeat with --cursor " + printable(next));
            }
        };
    }

    /** A fixed line, for answers without a body such as 204. */
    static Output message(String line) {
        return (body, out) -> out.println(printable(line));
    }

    /** A server-sent text made safe for a terminal: control characters become '?'. */
    static String printable(String text) {
        StringBuilder safe = new StringBuilder(text.length());
        text.codePoints().forEach(c -> safe.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return safe.toString();
    }

    private static void printRows(List<List<String>> rows, PrintWriter out) {
        int[] widths = new int[rows.getFirst().size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(i == row.size() - 1 ? row.get(i) : pad(row.get(i), widths[i]) + "  ");
            }
            out.println(line.toString().stripTrailing());
        }
    }

    private static String text(JsonNode value) {
        if (value.isMissingNode() || value.isNull()) {
            return "-";
        }
        return printable(value.isValueNode() ? value.asText() : value.toString());
    }

    private static String cut(String text) {
        return text.length() <= MAX_CELL_CHARS ? text : text.substring(0, MAX_CELL_CHARS - 1) + "…";
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(Math.max(0, width - text.length()));
    }
}
