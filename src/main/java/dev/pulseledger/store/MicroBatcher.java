package dev.pulseledger.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 */
public final class MicroBatcher<T, R> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MicroBatcher.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration MAX_DRAIN_ON_CLOSE = Duration.ofSeconds(10);

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

    /** One submitted item and the answer its caller waits for. */
    public record Job<T, R>(T item, CompletableFuture<R> answer) {
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
        thread.start();
    }

    /**
     * Queues the item and waits for its answer.
     *
     * @throws OverloadedException when the queue is full or the batcher is stopping
     */
    public R submit(T item) {
        Job<T, R> job = new Job<>(item, new CompletableFuture<>());
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
            Job<T, R> job = new Job<>(item, new CompletableFuture<>());
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

    private R await(Job<T, R> job) {
        try {
            return job.answer().get(limits.maxWait().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw timedOut.get();
        } catch (TimeoutException e) {
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
        try {
            thread.join(MAX_DRAIN_ON_CLOSE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        failLeftovers();
    }
}
