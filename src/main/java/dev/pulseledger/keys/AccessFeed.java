package dev.pulseledger.keys;

import dev.pulseledger.store.Workers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the access change log for this node's caches: one read per poll interval, plus a read on
 * demand (at most one per {@link #MIN_READ_GAP}) for a caller who needs to see every change committed
 * before it asked, such as an operator who just changed a key here. A caller who only needs to see
 * changes soon, such as a key unknown here that another node may have just created, waits for the
 * next scheduled read instead, which costs the database nothing more.
 */
public final class AccessFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AccessFeed.class);

    /** How often every node reads the log: revocations show everywhere within about this long. */
    public static final Duration POLL_INTERVAL = Duration.ofMillis(250);

    /** On-demand reads are at most this frequent, so callers asking at once share one read. */
    public static final Duration MIN_READ_GAP = Duration.ofMillis(100);

    /**
     * A cache fed by this feed is trusted only while its last good read started less than this long
     * ago: then a change committed anywhere is seen here within the contract's 5 seconds.
     */
    public static final Duration TRUSTED_FOR = Duration.ofSeconds(3);

    private static final Duration PRUNE_EVERY = Duration.ofHours(1);

    /** Hears of every change, in commit order, and of a gap after which its caches must start afresh. */
    public interface Listener {
        void changed(AccessChange change);

        /** Changes may have been missed (this node lagged past the log's retention): forget everything. */
        void lost();
    }

    private final AccessChangeLog log;
    private final Duration pollInterval;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final Thread poller;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition readFinished = lock.newCondition();
    private final Condition readWanted = lock.newCondition();
    private volatile boolean running = true;
    private volatile long lastGoodReadNanos;
    private long readsStarted;
    private long readsFinished;
    private long lastGoodRead;
    private boolean wanted;
    private long cursor;
    private final LongAdder scheduledReads = new LongAdder();
    private final LongAdder demandedReads = new LongAdder();

    private AccessFeed(AccessChangeLog log, Duration pollInterval, long cursor) {
        this.log = log;
        this.pollInterval = pollInterval;
        this.cursor = cursor;
        this.lastGoodReadNanos = System.nanoTime();
        this.poller = Thread.ofPlatform().name("access-feed").daemon(true).unstarted(this::poll);
    }

    /**
     * A feed that will follow the log from its current end. Load the caches it feeds after this, so
     * that nothing committed in between is missed; then {@link #start()} it.
     */
    public static AccessFeed from(AccessChangeLog log, Duration pollInterval) {
        return new AccessFeed(log, pollInterval, log.lastSequence());
    }

    public void subscribe(Listener listener) {
        listeners.add(listener);
    }

    public AccessFeed start() {
        poller.start();
        return this;
    }

    /** True while the caches fed here may answer without asking the database. */
    public boolean trusted() {
        return System.nanoTime() - lastGoodReadNanos < TRUSTED_FOR.toNanos();
    }

    /**
     * Waits until a read that started after this call has finished, so every change committed before
     * the call has been applied. False when that read failed or did not finish within {@code maxWait}.
     */
    public boolean catchUp(Duration maxWait) {
        return awaitRead(maxWait, true);
    }

    /**
     * As {@link #catchUp(Duration)}, but waits for the next scheduled read (at most a poll interval
     * away) instead of asking for an early one, so that no number of callers adds database work.
     */
    public boolean nextRead(Duration maxWait) {
        return awaitRead(maxWait, false);
    }

    /** Reads of the log started on schedule, once per poll interval. */
    public long scheduledReads() {
        return scheduledReads.sum();
    }

    /** Reads of the log started early because a caller asked to catch up: work that callers caused. */
    public long demandedReads() {
        return demandedReads.sum();
    }

    private boolean awaitRead(Duration maxWait, boolean early) {
        long deadline = System.nanoTime() + maxWait.toNanos();
        lock.lock();
        try {
            long target = readsStarted + 1;
            if (early) {
                wanted = true;
                readWanted.signal();
            }
            while (readsFinished < target) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !running) {
                    return false;
                }
                readFinished.awaitNanos(left);
            }
            return lastGoodRead >= target;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    private void poll() {
        long failingSinceNanos = 0;
        long lastPruneNanos = System.nanoTime() - PRUNE_EVERY.toNanos();
        while (running) {
            long startNanos = System.nanoTime();
            long generation = startRead();
            boolean good = false;
            try {
                readAll();
                if (failingSinceNanos != 0
                        && startNanos - failingSinceNanos > AccessChangeLog.RETENTION.toNanos() / 2) {
                    listeners.forEach(Listener::lost);
                }
                failingSinceNanos = 0;
                lastGoodReadNanos = startNanos;
                good = true;
            } catch (RuntimeException e) {
                if (failingSinceNanos == 0) {
                    failingSinceNanos = startNanos;
                    LOG.warn(
                            "Reading access changes failed; keys are looked up in the database until it works: {}",
                            e.toString());
                }
            }
            finishRead(generation, good);
            if (good && startNanos - lastPruneNanos > PRUNE_EVERY.toNanos()) {
                lastPruneNanos = startNanos;
                prune();
            }
            if (!awaitNextRead(startNanos)) {
                return;
            }
            boolean demanded = System.nanoTime() - startNanos < pollInterval.toNanos();
            (demanded ? demandedReads : scheduledReads).increment();
        }
    }

    private void readAll() {
        List<AccessChange> changes;
        do {
            changes = log.after(cursor);
            for (AccessChange change : changes) {
                cursor = change.sequence();
                listeners.forEach(listener -> listener.changed(change));
            }
        } while (changes.size() == AccessChangeLog.MAX_READ);
    }

    /** Every node prunes now and then; deleting what another node deleted already is harmless. */
    private void prune() {
        try {
            log.prune();
        } catch (RuntimeException e) {
            // The class and message only: no stack trace, and nothing of a key or secret.
            LOG.warn(
                    "Pruning old access changes failed; the next prune retries: {}: {}",
                    e.getClass().getName(),
                    e.getMessage());
        }
    }

    private long startRead() {
        lock.lock();
        try {
            wanted = false;
            return ++readsStarted;
        } finally {
            lock.unlock();
        }
    }

    private void finishRead(long generation, boolean good) {
        lock.lock();
        try {
            readsFinished = generation;
            if (good) {
                lastGoodRead = generation;
            }
            readFinished.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Sleeps until the poll interval is over, or until a read is wanted and the minimum gap is over. */
    private boolean awaitNextRead(long lastStartNanos) {
        lock.lock();
        try {
            while (running) {
                long now = System.nanoTime();
                Duration gap = wanted && MIN_READ_GAP.compareTo(pollInterval) < 0 ? MIN_READ_GAP : pollInterval;
                long dueNanos = lastStartNanos + gap.toNanos();
                if (now - dueNanos >= 0) {
                    return true;
                }
                readWanted.awaitNanos(dueNanos - now);
            }
            return false;
        } catch (InterruptedException e) {
            return false;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        running = false;
        poller.interrupt();
        lock.lock();
        try {
            readFinished.signalAll();
        } finally {
            lock.unlock();
        }
        Workers.awaitEnd(poller, Duration.ofSeconds(5));
    }
}
