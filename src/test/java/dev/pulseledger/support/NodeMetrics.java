package dev.pulseledger.support;

/** Reads a node's Prometheus text, as a scraper would. */
public final class NodeMetrics {
    private NodeMetrics() {}

    /** The sum of every sample of {@code name} (all label sets) that the node reports now. */
    public static double sum(String baseUrl, String name) {
        Reply reply = new Api(baseUrl, null).get("/metrics");
        double total = 0;
        for (String line : reply.text().split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    /** Database transactions and single reads the node has run so far, over all its pools. */
    public static long databaseTransactions(String baseUrl) {
        return (long) sum(baseUrl, "pulseledger_db_transactions_total");
    }
}
