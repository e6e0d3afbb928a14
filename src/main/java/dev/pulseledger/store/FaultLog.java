package dev.pulseledger.store;

import dev.pulseledger.store.SqlFaults.Diagnosis;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a database fault once, with its cause and what to do, then one count per interval while it
 * lasts, and one line when writes work again: a fault that fails every request (a full disk) must not
 * fill the log, nor the disk it is already short of.
 */
final class FaultLog {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);
    private static final Duration SUMMARY_INTERVAL = Duration.ofSeconds(10);
    /** A fault not seen for this long is over; when it comes back it is logged in full again. */
    private static final Duration QUIET_ENDS_EPISODE = Duration.ofMinutes(1);

    private final Map<String, Episode> episodes = new LinkedHashMap<>();
    private volatile boolean anyOpen;

    /** Counts one failure: the first of its kind is logged in full. */
    synchronized void failed(Diagnosis diagnosis) {
        long now = System.nanoTime();
        String key = diagnosis.fault().code() + ' ' + diagnosis.kind();
        Episode episode = episodes.get(key);
        if (episode == null || now - episode.lastSeenNanos > QUIET_ENDS_EPISODE.toNanos()) {
            LOG.warn(
                    "Database fault, answered 503 {} until it passes ({}: {}). What to do: {}",
                    diagnosis.fault().code(),
                    diagnosis.kind(),
                    diagnosis.cause(),
                    diagnosis.advice());
            episodes.put(key, new Episode(diagnosis.fault(), now));
            anyOpen |= diagnosis.fault().stopsWrites();
            return;
        }
        episode.lastSeenNanos = now;
        episode.total++;
        episode.sinceSummary++;
        if (now - episode.lastSummaryNanos >= SUMMARY_INTERVAL.toNanos()) {
            LOG.warn(
                    "Database fault goes on: {} more failure(s) in the last {} s ({}: {})",
                    episode.sinceSummary,
                    Duration.ofNanos(now - episode.lastSummaryNanos).toSeconds(),
                    diagnosis.kind(),
                    diagnosis.cause());
            episode.lastSummaryNanos = now;
            episode.sinceSummary = 0;
        }
    }

    /**
     * A write committed: every fault that stopped all writes is over. One account's busy lock is not:
     * other accounts write meanwhile, so it ends only when it has not been seen for a while.
     */
    void wrote() {
        if (anyOpen) {
            closeWriteFaults();
        }
    }

    private synchronized void closeWriteFaults() {
        episodes.entrySet().removeIf(entry -> {
            Episode episode = entry.getValue();
            if (episode.fault.stopsWrites()) {
                LOG.info("Database writes work again after {} failure(s) of {}", episode.total, entry.getKey());
                return true;
            }
            return false;
        });
        anyOpen = episodes.values().stream().anyMatch(episode -> episode.fault.stopsWrites());
    }

    /** One kind of fault while it lasts. */
    private static final class Episode {
        private final Fault fault;
        private long lastSeenNanos;
        private long lastSummaryNanos;
        private long total = 1;
        private long sinceSummary;

        Episode(Fault fault, long nowNanos) {
            this.fault = fault;
            this.lastSeenNanos = nowNanos;
            this.lastSummaryNanos = nowNanos;
        }
    }
}
