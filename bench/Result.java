import java.util.OptionalLong;

/**
 * One measured case in one round (0 where a case is measured once, or its figure is already a median);
 * {@code walFilesMade} is by how many files PostgreSQL's {@code pg_wal} grew during it (each new one is
 * written full of zeros and synced first), empty where not measured.
 */
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
        String batches,
        OptionalLong walFilesMade,
        int round) {
    Result(String store, String name, int connections, double requestsPerSecond, double p50Millis, double p99Millis,
            long rssKb, double serverCpuMicros, double databaseCpuMicros, String statuses, String batches,
            OptionalLong walFilesMade) {
        this(store, name, connections, requestsPerSecond, p50Millis, p99Millis, rssKb, serverCpuMicros,
                databaseCpuMicros, statuses, batches, walFilesMade, 0);
    }

    Result inRound(int number) {
        return new Result(store, name, connections, requestsPerSecond, p50Millis, p99Millis, rssKb, serverCpuMicros,
                databaseCpuMicros, statuses, batches, walFilesMade, number);
    }
}
