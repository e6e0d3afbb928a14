package dev.pulseledger.store;

import dev.pulseledger.store.SqlFaults.Diagnosis;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a database fault once, with its cause and what to do, then one count per interval while it
 * lasts, and that writes work again: a fault that fails every request (a full disk) must not fill the
 * log, nor the disk it is already short of. Per kind of fault, at most one full line per minute of
 * quiet, one count and one recovery line per interval, however the fault comes and goes meanwhile.
 */
final class FaultLog {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);
    private static final Duration INTERVAL = Duration.ofSeconds(10);
    /** A fault not seen for this long is over; when it comes back it is logged in full again. */
    private static final Duration QUIET_ENDS_EPISODE = Duration.ofMinutes(1);

    /** Keyed by fault code and SQLSTATE or SQLite result: a handful of keys at most. */
    private final Map<String, Episode> episodes = new HashMap<>();

    private volatile boolean writesFailing;

    /** Counts one failure: the first of an episode is logged in full, the rest as a count per interval. */
    synchronized void failed(Diagnosis diagnosis) {
        long now = System.nanoTime();
        String key = diagnosis.fault().code() + " (" + diagnosis.kind() + ")";
        writesFailing |= diagnosis.nodeWide();
        Episode episode = episodes.get(key);
        if (episode == null || now - episode.lastSeenNanos > QUIET_ENDS_EPISODE.toNanos()) {
            LOG.warn(
                    "Database fault, answered 503 {} until it passes ({}: {}). What to do: {}",
                    diagnosis.fault().code(),
                    diagnosis.kind(),
                    diagnosis.cause(),
                    diagnosis.advice());
            episodes.put(key, new Episode(diagnosis.nodeWide(), now));
            return;
        }
        episode.lastSeenNanos = now;
        episode.total++;
        episode.sinceSummary++;
        episode.recovered = false;
        if (now - episode.lastSummaryNanos >= INTERVAL.toNanos()) {
            LOG.warn(
                    "Database fault {} goes on: {} failure(s) in the last {} s, {} since it began: {}",
                    key,
                    episode.sinceSummary,
                    Duration.ofNanos(now - episode.lastSummaryNanos).toSeconds(),
                    episode.total,
                    diagnosis.cause());
            episode.lastSummaryNanos = now;
            episode.sinceSummary = 0;
        }
    }

    /**
     * A write committed: every fault that stopped all writes is over. One that failed only its own
     * transaction (a busy account, a timeout) is not: other writes go on meanwhile.
     */
    void wrote() {
        if (writesFailing) {
            recovered();
        }
    }

    private synchronized void recovered() {
        long now = System.nanoTime();
        episodes.forEach((key, episode) -> {
            if (episode.nodeWide && !episode.recovered) {
                episode.recovered = true;
                if (now - episode.lastRecoveryLogNanos >= INTERVAL.toNanos()) {
                    episode.lastRecoveryLogNanos = now;
                    LOG.info("Database writes work again after {} failure(s) of {}", episode.total, key);
                }
            }
        });
        writesFailing = false;
    }

    /** One kind of fault while it lasts. */
    private static final class Episode {
        private final boolean nodeWide;
        private long lastSeenNanos;
        private long lastSummaryNanos;
        private long lastRecoveryLogNanos;
        private long total = 1;
        private long sinceSummary;
        private boolean recovered;

        Episode(boolean nodeWide, long nowNanos) {
            this.nodeWide = nodeWide;
            this.lastSeenNanos = nowNanos;
            this.lastSummaryNanos = nowNanos;
            this.lastRecoveryLogNanos = nowNanos - INTERVAL.toNanos();
        }
    }
}
