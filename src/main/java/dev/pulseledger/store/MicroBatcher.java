package dev.pulseledger.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Micro-batching for database work: callers submit items and wait; one thread drains whatever is
 * queued (up to {@code maxBatchSize}) and hands it to the work as one batch. An idle batcher runs a
 * lone item at once: it never waits for a batch to fill.
 *
 * <p>Shutdown is the same for every use: {@link #close()} stops taking items, lets the thread finish
 * what is queued, and then fails whatever is left at once, so no caller waits for a thread that has
 * stopped.
 *
 * <p>A caller waits for its answer without a timer of its own: on virtual threads every timed wait is
 * scheduled, and cancelled, through the JDK's one delay-scheduler thread, which cost a fifth of the
 * node's CPU at 17,000 spends a second. One watchman thread instead fails, a few times a second, the
 * answers still open past {@code maxWait}.
 */
public final class MicroBatcher<T, R> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MicroBatcher.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration MAX_DRAIN_ON_CLOSE = Duration.ofSeconds(10);
    private static final Duration MIN_WATCH_INTERVAL = Duration.ofMillis(5);
    private static final Duration MAX_WATCH_INTERVAL = Duration.ofMillis(100);

    /**
     * Runs one batch; it completes or fails each job, now or later from work it hands the job on to (a
     * job left open is answered by its caller's {@code maxWait}); if it throws, every job of the batch fails.
     */
    @FunctionalInterface
    public interface Work<T, R> {
        void run(List<Job<T, R>> batch);
    }

    /** Limits of the queue and its batches; {@code maxWait} bounds how long a caller waits for its answer. */
    public record Limits(int maxQueueLength, int maxBatchSize, Duration maxWait) {}

    /** One submitted item and the answer its caller waits for, which fails past {@code deadlineNanos}. */
    public record Job<T, R>(T item, CompletableFuture<R> answer, long deadlineNanos) {
        public void complete(R result) {
            answer.complete(result);
        }

        public void fail(Throwable failure) {
            answer.completeExceptionally(failure);
        }
    }

    private final Limits limits;
    private final Work<T, R> work;
    private final Supplier<RuntimeException> timedOut;
    private final BlockingQueue<Job<T, R>> queue;
    private final Thread thread;
    /** The jobs whose callers have not had their answer, oldest first. */
    private final Queue<Job<T, R>> unanswered = new ConcurrentLinkedQueue<>();

    private final Thread watchman;
    private volatile boolean running = true;

    /**
     * @param timedOut what a caller gets when its answer takes longer than {@code maxWait}
     */
    public MicroBatcher(String threadName, Limits limits, Work<T, R> work, Supplier<RuntimeException> timedOut) {
        this.limits = limits;
        this.work = work;
        this.timedOut = timedOut;
        this.queue = new ArrayBlockingQueue<>(limits.maxQueueLength());
        this.thread = Thread.ofPlatform().name(threadName).daemon(true).unstarted(this::drain);
        this.watchman =
                Thread.ofPlatform().name(threadName + "-deadlines").daemon(true).unstarted(this::failOverdueAnswers);
        thread.start();
        watchman.start();
    }

    /**
     * Queues the item and waits for its answer.
     *
     * @throws OverloadedException when the queue is full or the batcher is stopping
     */
    public R submit(T item) {
        Job<T, R> job = newJob(item);
        if (!running || !queue.offer(job)) {
            throw new OverloadedException();
        }
        if (!running && queue.remove(job)) {
            throw new OverloadedException(); // close() began after the check above: nothing will run it
        }
        return await(job);
    }

    /**
     * Queues every item and waits for all their answers, in order: each item's failure, or empty when it
     * succeeded. Items queued before the queue filled up still run.
     *
     * @throws OverloadedException when the queue is full or the batcher is stopping
     */
    public List<Optional<RuntimeException>> submitAll(List<T> items) {
        List<Job<T, R>> jobs = new ArrayList<>(items.size());
        for (T item : items) {
            Job<T, R> job = newJob(item);
            if (!running || !queue.offer(job)) {
                throw new OverloadedException();
            }
            jobs.add(job);
        }
        if (!running) {
            jobs.stream().filter(queue::remove).forEach(job -> job.fail(new OverloadedException()));
        }
        List<Optional<RuntimeException>> failures = new ArrayList<>(jobs.size());
        for (Job<T, R> job : jobs) {
            try {
                await(job);
                failures.add(Optional.empty());
            } catch (RuntimeException e) {
                failures.add(Optional.of(e));
            }
        }
        return failures;
    }

    private Job<T, R> newJob(T item) {
        return new Job<>(
                item,
                new CompletableFuture<>(),
                System.nanoTime() + limits.maxWait().toNanos());
    }

    /** Waits for the answer, which the watchman fails past the job's deadline. */
    private R await(Job<T, R> job) {
        unanswered.add(job);
        try {
            return job.answer().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw timedOut.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private void drain() {
        List<Job<T, R>> batch = new ArrayList<>(limits.maxBatchSize());
        while (running || !queue.isEmpty()) {
            try {
                Job<T, R> first = queue.poll(POLL.toMillis(), TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, limits.maxBatchSize() - 1);
                work.run(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (DatabaseUnavailableException e) {
                failOpen(batch, e); // the database's own log and metrics report an outage, not each batch
            } catch (RuntimeException | Error e) {
                LOG.error("A batch failed", e);
                failOpen(batch, e);
            } finally {
                batch.clear();
            }
        }
        failLeftovers();
    }

    /** The watchman's loop: forgets answered jobs and fails the overdue ones, until the batcher closes. */
    private void failOverdueAnswers() {
        long intervalMillis = Math.clamp(
                limits.maxWait().toMillis() / 20, MIN_WATCH_INTERVAL.toMillis(), MAX_WATCH_INTERVAL.toMillis());
        while (running || !unanswered.isEmpty()) {
            try {
                Thread.sleep(intervalMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long now = System.nanoTime();
            try {
                unanswered.removeIf(job -> {
                    if (now - job.deadlineNanos() >= 0) {
                        job.fail(timedOut.get());
                    }
                    return job.answer().isDone();
                });
            } catch (RuntimeException e) {
                // The watchman must outlive any one round: callers wait for it without a timer.
                LOG.error("Failing overdue answers failed; trying again", e);
            }
        }
    }

    private void failLeftovers() {
        List<Job<T, R>> left = new ArrayList<>();
        queue.drainTo(left);
        failOpen(left, new OverloadedException());
    }

    private static <T, R> void failOpen(List<Job<T, R>> jobs, Throwable failure) {
        jobs.forEach(job -> job.fail(failure));
    }

    /** Items waiting for the worker now. */
    public int queued() {
        return queue.size();
    }

    /** Stops taking items, finishes what is queued (for a bounded time), then fails what is left. */
    @Override
    public void close() {
        running = false;
        Workers.awaitEnd(thread, MAX_DRAIN_ON_CLOSE);
        failLeftovers();
        // Work handed on elsewhere may still answer its jobs; the watchman fails what is left by its deadline.
    }
}
