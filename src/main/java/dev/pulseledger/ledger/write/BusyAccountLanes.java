package dev.pulseledger.ledger.write;

import dev.pulseledger.ledger.core.LedgerOutcome;
import dev.pulseledger.store.DatabaseUnavailableException;
import dev.pulseledger.store.Fault;
import dev.pulseledger.store.MicroBatcher.Job;
import dev.pulseledger.store.OverloadedException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The commands of accounts whose lock another transaction holds, out of the writer's batch: each such
 * account gets a lane that runs its commands in queue order, in transactions of their own that wait at
 * most {@code lockWait} for the account's lock, and answers 503 {@code account_busy} when the wait is
 * over. The account's later commands join its lane until the lane is empty, so none overtakes an earlier
 * one; then the account is back in the writer's batches.
 */
public final class BusyAccountLanes implements AutoCloseable {
    private static final Duration MAX_DRAIN_ON_CLOSE = Duration.ofSeconds(10);

    /** Runs commands of one account in one round that waits at most {@code lockWait} for its lock. */
    @FunctionalInterface
    interface Runner {
        void run(List<Job<QueuedCommand<?>, LedgerOutcome>> jobs, Duration lockWait);
    }

    /**
     * How long a busy account's commands wait, and how many such accounts wait at once.
     *
     * @param lockWait the longest a command waits for its account's lock
     * @param maxLanes how many busy accounts wait at once, each on a connection of its own
     */
    public record Limits(Duration lockWait, int maxLanes) {
        public Limits {
            if (lockWait.isNegative() || lockWait.isZero() || maxLanes < 1) {
                throw new IllegalArgumentException(
                        "Busy-account limits must be positive: " + lockWait + ", " + maxLanes);
            }
        }
    }

    /** The jobs a batch keeps, and those that will not wait for their busy account, in queue order. */
    record Diverted(
            List<Job<QueuedCommand<?>, LedgerOutcome>> kept, List<Job<QueuedCommand<?>, LedgerOutcome>> refused) {}

    private record Waiting(Job<QueuedCommand<?>, LedgerOutcome> job, long deadlineNanos) {}

    private final Limits limits;
    private final Runner runner;
    private final ExecutorService threads;
    /** The lanes by account; a lane stays while its commands run, so that later ones queue behind them. */
    private final Map<String, Deque<Waiting>> lanes = new HashMap<>();

    BusyAccountLanes(Limits limits, Runner runner) {
        this.limits = limits;
        this.runner = runner;
        this.threads = Executors.newFixedThreadPool(
                limits.maxLanes(),
                Thread.ofPlatform().name("ledger-busy-account-", 0).daemon(true).factory());
    }

    /**
     * Moves the jobs of accounts that are {@code busy} or already have a lane into their lanes, keeping
     * each account's order; jobs that do not wait for a busy account are refused instead.
     */
    synchronized Diverted divert(List<Job<QueuedCommand<?>, LedgerOutcome>> jobs, Set<String> busy) {
        List<Job<QueuedCommand<?>, LedgerOutcome>> kept = new ArrayList<>(jobs.size());
        List<Job<QueuedCommand<?>, LedgerOutcome>> refused = new ArrayList<>();
        long deadline = System.nanoTime() + limits.lockWait().toNanos();
        for (Job<QueuedCommand<?>, LedgerOutcome> job : jobs) {
            String accountId = job.item().accountId();
            Deque<Waiting> lane = lanes.get(accountId);
            if (lane == null && !busy.contains(accountId)) {
                kept.add(job);
            } else if (!job.item().waitsForBusyAccount()) {
                refused.add(job);
            } else {
                if (lane == null) {
                    lane = new ArrayDeque<>();
                    lanes.put(accountId, lane);
                    threads.execute(() -> drain(accountId));
                }
                lane.add(new Waiting(job, deadline));
            }
        }
        return new Diverted(kept, refused);
    }

    /** The answer of a command whose account stayed locked elsewhere. */
    static DatabaseUnavailableException busy() {
        return new DatabaseUnavailableException(Fault.ACCOUNT_BUSY, "The account's lock is held elsewhere", null);
    }

    /** How many accounts have a lane now. */
    synchronized int size() {
        return lanes.size();
    }

    private void drain(String accountId) {
        while (true) {
            List<Waiting> taken = take(accountId);
            if (taken.isEmpty()) {
                return;
            }
            long now = System.nanoTime();
            List<Job<QueuedCommand<?>, LedgerOutcome>> jobs = new ArrayList<>(taken.size());
            long oldestDeadline = Long.MAX_VALUE;
            for (Waiting waiting : taken) {
                if (waiting.deadlineNanos() - now <= 0) {
                    waiting.job().fail(busy()); // it waited for a free lane until its time was up
                } else {
                    jobs.add(waiting.job());
                    oldestDeadline = Math.min(oldestDeadline, waiting.deadlineNanos());
                }
            }
            if (!jobs.isEmpty()) {
                runner.run(jobs, Duration.ofNanos(oldestDeadline - now));
            }
        }
    }

    /** Everything queued in the account's lane; empty (and the lane gone) when nothing is. */
    private synchronized List<Waiting> take(String accountId) {
        Deque<Waiting> lane = lanes.get(accountId);
        if (lane == null) {
            return List.of();
        }
        if (lane.isEmpty()) {
            lanes.remove(accountId);
            return List.of();
        }
        List<Waiting> taken = new ArrayList<>(lane);
        lane.clear();
        return taken;
    }

    /** Lets the lanes finish (for a bounded time), then fails what is left. */
    @Override
    public void close() {
        threads.shutdown();
        try {
            threads.awaitTermination(MAX_DRAIN_ON_CLOSE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        threads.shutdownNow();
        List<Waiting> left = new ArrayList<>();
        synchronized (this) {
            lanes.values().forEach(left::addAll);
            lanes.clear();
        }
        left.forEach(waiting -> waiting.job().fail(new OverloadedException()));
    }
}
