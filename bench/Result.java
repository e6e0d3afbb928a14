import java.util.OptionalLong;

/**
 * One measured case; {@code walFilesMade} is by how many files PostgreSQL's {@code pg_wal} grew during
 * it (each new one is written full of zeros and synced first), empty where not measured.
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
        OptionalLong walFilesMade) {}

