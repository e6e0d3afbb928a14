package dev.pulseledger.tokens;

import dev.pulseledger.store.DatabaseUnavailableException;
import dev.pulseledger.store.Ids;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit for spends and reverts. Callers enqueue; one writer thread drains whatever is queued
 * (up to {@code maxBatchSize}), applies it in one transaction, and only then answers each caller.
 * An idle system commits a lone request at once: the writer never waits for a batch to fill.
 */
public final class GroupCommitLedger implements SpendLedger, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitLedger.class);

    /** Limits of the queue and its batches. */
    public record Limits(int maxQueueLength, int maxBatchSize, Duration maxWait) {}

    private final SpendBatchStore store;
    private final Limits limits;
    private final BlockingQueue<Pending> queue;
    private final Set<String> keysInFlight = ConcurrentHashMap.newKeySet();
    private final Thread writer;
    private final DistributionSummary batchSizes;
    private final Timer batchTimes;
    private volatile boolean running = true;

    public GroupCommitLedger(SpendBatchStore store, Limits limits, MeterRegistry metrics) {
        this.store = store;
        this.limits = limits;
        this.queue = new ArrayBlockingQueue<>(limits.maxQueueLength());
        this.batchSizes = DistributionSummary.builder("pulseledger.spend.batch.size")
                .description("Spends and reverts committed together in one transaction")
                .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
                .register(metrics);
        this.batchTimes = Timer.builder("pulseledger.spend.batch")
                .description("Time to apply and commit one batch of spends and reverts")
                .register(metrics);
        Gauge.builder("pulseledger.spend.queue.depth", queue, BlockingQueue::size)
                .description("Spends and reverts waiting for the writer; at the capacity new ones get 503")
                .register(metrics);
        Gauge.builder("pulseledger.spend.queue.capacity", limits, Limits::maxQueueLength)
                .description("The most spends and reverts that may wait (--spend-queue-length)")
                .register(metrics);
        this.writer = Thread.ofPlatform().name("spend-writer").daemon(true).unstarted(this::drain);
        writer.start();
    }

    @Override
    public SpendResult spend(SpendRequest request) {
        if (request.idempotencyKey().isEmpty()) {
            return (SpendResult) submit(new LedgerCommand.Spend(request, Ids.spending()));
        }
        String scope = request.accountId() + '\n' + request.idempotencyKey().get();
        if (!keysInFlight.add(scope)) {
            return new SpendResult.IdempotencyKeyInUse();
        }
        try {
            return (SpendResult) submit(new LedgerCommand.Spend(request, Ids.spending()));
        } finally {
            keysInFlight.remove(scope);
        }
    }

    @Override
    public RevertResult revert(String accountId, String spendingId) {
        return (RevertResult) submit(new LedgerCommand.Revert(accountId, spendingId));
    }

    private LedgerOutcome submit(LedgerCommand command) {
        Pending pending = new Pending(command, new CompletableFuture<>());
        if (!running || !queue.offer(pending)) {
            throw new OverloadedException();
        }
        try {
            return pending.outcome().get(limits.maxWait().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OutcomeUnknownException();
        } catch (TimeoutException e) {
            throw new OutcomeUnknownException();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private void drain() {
        List<Pending> batch = new ArrayList<>(limits.maxBatchSize());
        while (running || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, limits.maxBatchSize() - 1);
                batchSizes.record(batch.size());
                batchTimes.record(() -> applyBatch(batch));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | Error e) {
                LOG.error("The spend writer failed a batch", e);
                batch.forEach(p -> p.outcome().completeExceptionally(e));
            } finally {
                batch.clear();
            }
        }
    }

    /**
     * Applies the batch; if it fails, applies each command alone so that one bad command cannot fail
     * the others, and a command whose first attempt may have landed is not applied twice. An
     * unreachable database fails the whole batch at once: retrying each command would only make every
     * caller wait for one connection timeout per command.
     */
    private void applyBatch(List<Pending> batch) {
        try {
            complete(batch, store.apply(commands(batch), false));
            return;
        } catch (DatabaseUnavailableException e) {
            batch.forEach(pending -> pending.outcome().completeExceptionally(e));
            return;
        } catch (RuntimeException e) {
            LOG.warn("A batch of {} failed ({}); applying its commands one by one", batch.size(), e.toString());
        }
        for (Pending pending : batch) {
            try {
                complete(List.of(pending), store.apply(List.of(pending.command()), true));
            } catch (RuntimeException e) {
                pending.outcome().completeExceptionally(e);
            }
        }
    }

    private static List<LedgerCommand> commands(List<Pending> batch) {
        return batch.stream().map(Pending::command).toList();
    }

    private static void complete(List<Pending> batch, List<LedgerOutcome> outcomes) {
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).outcome().complete(outcomes.get(i));
        }
    }

    /** Stops taking commands, finishes what is queued, and stops the writer. */
    @Override
    public void close() {
        running = false;
        try {
            writer.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private record Pending(LedgerCommand command, CompletableFuture<LedgerOutcome> outcome) {}
}
