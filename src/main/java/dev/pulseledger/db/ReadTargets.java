package dev.pulseledger.db;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.DatabaseUnavailableException;
import dev.pulseledger.store.SqlWork;
import dev.pulseledger.store.StoreException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses where a read that may be a moment old runs (CONTRACT §18): a replica known to hold every commit
 * of the last {@code --max-replica-lag-ms} and every write of the requester itself, else the primary. A
 * replica read that fails is run again on the primary, so a replica that lags, stops or vanishes never
 * fails a request; its probe brings it back into use once it answers and has caught up.
 */
public final class ReadTargets implements Database.LaggingReads, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReadTargets.class);
    /** Probes run at this pace, or four times per allowed lag when that is shorter. */
    private static final Duration MAX_PROBE_INTERVAL = Duration.ofMillis(250);

    private final Database primary;
    private final List<Replica> replicas;
    private final OwnWrites ownWrites;
    private final long maxLagNanos;
    private final Duration probeInterval;
    private final ScheduledExecutorService probes;
    private final List<ScheduledFuture<?>> scheduled = new CopyOnWriteArrayList<>();
    private final AtomicInteger next = new AtomicInteger();
    private final LongAdder servedByPrimary = new LongAdder();
    private final Counter behind;
    private final Counter ownWritesPending;
    private final Counter failed;

    private ReadTargets(
            Database primary, List<Replica> replicas, OwnWrites ownWrites, Duration maxLag, MeterRegistry metrics) {
        this.primary = primary;
        this.replicas = replicas;
        this.ownWrites = ownWrites;
        this.maxLagNanos = maxLag.toNanos();
        this.probeInterval =
                MAX_PROBE_INTERVAL.compareTo(maxLag.dividedBy(4)) < 0 ? MAX_PROBE_INTERVAL : maxLag.dividedBy(4);
        this.probes = Executors.newScheduledThreadPool(
                replicas.size(),
                Thread.ofPlatform().name("replica-probe-", 1).daemon().factory());
        this.behind = fallbacks(metrics, "lag");
        this.ownWritesPending = fallbacks(metrics, "own_writes");
        this.failed = fallbacks(metrics, "error");
        FunctionCounter.builder("pulseledger.replica.reads", servedByPrimary, LongAdder::sum)
                .description("Reads that may be a moment old, by the server that served them")
                .tag("target", "primary")
                .register(metrics);
        for (Replica replica : replicas) {
            FunctionCounter.builder("pulseledger.replica.reads", replica, Replica::servedCount)
                    .description("Reads that may be a moment old, by the server that served them")
                    .tag("target", replica.name())
                    .register(metrics);
            FunctionCounter.builder("pulseledger.replica.errors", replica, Replica::failureCount)
                    .description("Reads that failed on the replica (then served by the primary)")
                    .tag("replica", replica.name())
                    .register(metrics);
            Gauge.builder("pulseledger.replica.lag", replica, r -> r.lagSeconds(System.nanoTime()))
                    .description("How far behind the primary the replica may be: time since the last moment"
                            + " it was known to hold every commit (+Inf before the first)")
                    .baseUnit("seconds")
                    .tag("replica", replica.name())
                    .register(metrics);
            Gauge.builder("pulseledger.replica.up", replica, r -> r.isUp() ? 1 : 0)
                    .description("1 while the replica answers its probe as a streaming standby, else 0")
                    .tag("replica", replica.name())
                    .register(metrics);
        }
    }

    /**
     * Opens a small pool per replica URL (without waiting for any) and routes {@code primary}'s lagging
     * reads through them; {@link #start()} begins the probes.
     */
    public static ReadTargets open(
            Database primary,
            List<String> replicaUrls,
            Function<String, Database.Settings> poolSettings,
            Duration maxLag,
            OwnWrites ownWrites,
            MeterRegistry metrics) {
        long now = System.nanoTime();
        List<Replica> replicas = new ArrayList<>();
        try {
            for (int i = 0; i < replicaUrls.size(); i++) {
                Database pool = Database.openReplica(poolSettings.apply(replicaUrls.get(i)));
                replicas.add(new Replica("replica-" + (i + 1), pool, now));
            }
        } catch (RuntimeException e) {
            replicas.forEach(Replica::close);
            throw e;
        }
        ReadTargets targets = new ReadTargets(primary, List.copyOf(replicas), ownWrites, maxLag, metrics);
        primary.sendLaggingReadsTo(targets);
        return targets;
    }

    /** Starts each replica's probe. */
    public void start() {
        for (Replica replica : replicas) {
            scheduled.add(probes.scheduleWithFixedDelay(
                    () -> probe(replica), 0, probeInterval.toNanos(), TimeUnit.NANOSECONDS));
        }
    }

    private void probe(Replica replica) {
        long start = System.nanoTime();
        try {
            replica.probe(primary, start);
            ownWrites.forgetBefore(start - maxLagNanos - probeInterval.toNanos());
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again; the replica must keep being probed.
            LOG.warn("The probe of read replica {} failed", replica.name(), e);
        }
    }

    @Override
    public <T> T read(SqlWork<T> work) {
        long now = System.nanoTime();
        long mustHold = ownWrites.mustHoldUpToNanos();
        Replica chosen = null;
        boolean anyFresh = false;
        int first = Math.floorMod(next.getAndIncrement(), Math.max(1, replicas.size()));
        for (int i = 0; i < replicas.size() && chosen == null; i++) {
            Replica replica = replicas.get((first + i) % replicas.size());
            long caughtUpTo = replica.caughtUpToNanos();
            if (replica.isUp() && now - caughtUpTo <= maxLagNanos) {
                anyFresh = true;
                if (mustHold == OwnWrites.NO_WRITE
                        || (mustHold != OwnWrites.WRITE_UNDER_WAY && caughtUpTo - mustHold > 0)) {
                    chosen = replica;
                }
            }
        }
        if (chosen == null) {
            (anyFresh ? ownWritesPending : behind).increment();
            return onPrimary(work);
        }
        try {
            T result = chosen.pool().read(work);
            chosen.served();
            return result;
        } catch (DatabaseUnavailableException | StoreException e) {
            chosen.failed(e);
            failed.increment();
            return onPrimary(work);
        }
    }

    private <T> T onPrimary(SqlWork<T> work) {
        T result = primary.read(work);
        servedByPrimary.increment();
        return result;
    }

    private static Counter fallbacks(MeterRegistry metrics, String reason) {
        return Counter.builder("pulseledger.replica.fallbacks")
                .description("Reads that may be a moment old served by the primary instead of a replica, by reason:"
                        + " lag (none within --max-replica-lag-ms, or none answering), own_writes (the"
                        + " requester's own recent write not yet on a replica), error (the replica's read failed)")
                .tag("reason", reason)
                .register(metrics);
    }

    @Override
    public void close() {
        primary.sendLaggingReadsTo(primary::read);
        scheduled.forEach(probe -> probe.cancel(false));
        probes.shutdownNow();
        try {
            probes.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        replicas.forEach(Replica::close);
    }
}
