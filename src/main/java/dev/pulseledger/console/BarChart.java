package dev.pulseledger.console;

import java.util.ArrayList;
import java.util.List;

/**
 * A bar chart laid out on the server, drawn by the template as SVG rectangles: no chart script, no
 * inline style, and the same numbers in a table beside it for screen readers.
 */
record BarChart(
        String title, String unit, String span, String step, String stepHeading, long max, long total, List<Bar> bars) {
    static final int WIDTH = 480;
    static final int HEIGHT = 120;
    private static final int GAP = 2;

    /** One bar: its label (an hour), its value, and where it sits in the chart's viewBox. */
    record Bar(String label, long value, int x, int y, int width, int height) {}

    /** A labelled value before layout. */
    record Point(String label, long value) {}

    /** A chart of the last 24 hours, a bar an hour. */
    static BarChart of(String title, String unit, List<Point> points) {
        return of(title, unit, "in 24 h", "an hour", "Hour (UTC)", points);
    }

    /**
     * A chart whose bars each cover one {@code step} ("a day"), over a {@code span} ("this period"),
     * with {@code stepHeading} heading the table of numbers.
     */
    static BarChart of(String title, String unit, String span, String step, String stepHeading, List<Point> points) {
        long max = points.stream().mapToLong(Point::value).max().orElse(0);
        long total = points.stream().mapToLong(Point::value).sum();
        int slot = points.isEmpty() ? WIDTH : WIDTH / points.size();
        List<Bar> bars = new ArrayList<>(points.size());
        for (int i = 0; i < points.size(); i++) {
            Point point = points.get(i);
            // A non-zero value gets at least one unit of height, so a single spend is visible.
            int height = max == 0 ? 0 : (int) Math.max(point.value() > 0 ? 1 : 0, point.value() * HEIGHT / max);
            bars.add(new Bar(point.label(), point.value(), i * slot, HEIGHT - height, slot - GAP, height));
        }
        return new BarChart(title, unit, span, step, stepHeading, max, total, bars);
    }

    public int width() {
        return WIDTH;
    }

    public int height() {
        return HEIGHT;
    }
}
