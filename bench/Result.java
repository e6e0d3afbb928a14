/** One measured case. */
record Result(
        String store,
        String name,
        int connections,
        double requestsPerSecond,
        double p50Millis,
        double p99Millis,
        long rssKb,
        double serverCpuMicros,
        double databaseCpuMicros,
        String statuses,
        String batches) {}

