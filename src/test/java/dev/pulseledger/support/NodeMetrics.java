package dev.pulseledger.support;

/** Reads a node's Prometheus text, as a scraper would. */
public final class NodeMetrics {
    private NodeMetrics() {}

    /**
     * The sum of every sample of {@code name} (all label sets) that the node reports now; a name with
     * its labels, {@code name{label="value"}}, picks that one sample.
     */
    public static double sum(String baseUrl, String name) {
        Reply reply = new Api(baseUrl, null).get("/metrics");
        boolean labelled = name.endsWith("}");
        double total = 0;
        for (String line : reply.text().split("\n", -1)) {
            if ((!labelled && line.startsWith(name + "{")) || line.startsWith(name + " ")) {
                total += sampleValue(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    /** A sample's value in Prometheus text, which spells the infinities {@code +Inf} and {@code -Inf}. */
    private static double sampleValue(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(text);
        };
    }

    /**
     * Database reads that requests caused on the way to authentication: key lookups and access-feed
     * reads asked for early. The feed's scheduled reads run whatever the traffic and are not counted.
     */
    public static long authenticationReads(String baseUrl) {
        return (long) (sum(baseUrl, "pulseledger_key_lookups_total")
                + sum(baseUrl, "pulseledger_access_feed_reads_total{trigger=\"demand\"}"));
    }

    /** Database transactions and single reads the node has run so far, over all its pools. */
    public static long databaseTransactions(String baseUrl) {
        return (long) sum(baseUrl, "pulseledger_db_transactions_total");
    }
}
