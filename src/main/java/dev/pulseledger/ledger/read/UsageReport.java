package dev.pulseledger.ledger.read;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** An account's spending per bucket over a window, every bucket present, with the window's total. */
public record UsageReport(UsageWindow window, List<Bucket> buckets, Totals total) {
    /** What the ledger shows in one bucket: tokens spent, tokens reverted and the number of spendings. */
    public record Bucket(Instant start, long spent, long reverted, long spendings) {}

    /** The sums over every bucket. */
    public record Totals(long spent, long reverted, long spendings) {}

    /** One row the database summed: the ledger's spend and revert lines of one finer period. */
    public record Row(long startMillis, long spent, long reverted, long spendings) {}

    /** Rolls the database's finer rows up into the window's buckets, empty buckets included. */
    public static UsageReport of(UsageWindow window, List<Row> rows) {
        TreeMap<Instant, long[]> sums = new TreeMap<>();
        Granularity granularity = window.granularity();
        for (Instant at = window.from(); at.isBefore(window.to()); at = granularity.next(at)) {
            sums.put(at, new long[3]);
        }
        for (Row row : rows) {
            Map.Entry<Instant, long[]> bucket = sums.floorEntry(Instant.ofEpochMilli(row.startMillis()));
            if (bucket == null || !Instant.ofEpochMilli(row.startMillis()).isBefore(window.to())) {
                throw new IllegalArgumentException("A usage row lies outside its window: " + row);
            }
            bucket.getValue()[0] += row.spent();
            bucket.getValue()[1] += row.reverted();
            bucket.getValue()[2] += row.spendings();
        }
        List<Bucket> buckets = new ArrayList<>(sums.size());
        long spent = 0;
        long reverted = 0;
        long spendings = 0;
        for (Map.Entry<Instant, long[]> entry : sums.entrySet()) {
            long[] sum = entry.getValue();
            buckets.add(new Bucket(entry.getKey(), sum[0], sum[1], sum[2]));
            spent += sum[0];
            reverted += sum[1];
            spendings += sum[2];
        }
        return new UsageReport(window, List.copyOf(buckets), new Totals(spent, reverted, spendings));
    }
}
