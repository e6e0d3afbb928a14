package dev.pulseledger.ledger;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.ledger.LedgerState.IdempotencyScope;
import dev.pulseledger.store.DatabaseUnavailableException;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.MicroBatcher;
import dev.pulseledger.store.MicroBatcher.Job;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one road of every balance change: commands are group-committed (one round of {@link LedgerCore}
 * and the {@link LedgerStore} per batch), and each caller is answered only after the commit.
 */
public final class LedgerWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LedgerWriter.class);

    private final LedgerStore store;
    private final Clock clock;
    private final Set<IdempotencyScope> keysInFlight = ConcurrentHashMap.newKeySet();
    private final DistributionSummary batchSizes;
    private final Timer batchTimes;
    private final MicroBatcher<LedgerCommand, LedgerOutcome> batcher;
    private final ReservationMetrics reservationMetrics;

    public LedgerWriter(LedgerStore store, Clock clock, MicroBatcher.Limits limits, MeterRegistry metrics) {
        this.store = store;
        this.clock = clock;
        this.batchSizes = DistributionSummary.builder("pulseledger.spend.batch.size")
                .description("Ledger commands committed together in one transaction")
                .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
                .register(metrics);
        this.batchTimes = Timer.builder("pulseledger.spend.batch")
                .description("Time to decide and commit one batch of ledger commands")
                .register(metrics);
        this.reservationMetrics = new ReservationMetrics(metrics);
        this.batcher = new MicroBatcher<>("ledger-writer", limits, this::applyBatch, OutcomeUnknownException::new);
        Gauge.builder("pulseledger.spend.queue.depth", batcher, MicroBatcher::queued)
                .description("Ledger commands (spends, reverts, credits) waiting for the writer; at the capacity"
                        + " new ones get 503")
                .register(metrics);
        Gauge.builder("pulseledger.spend.queue.capacity", limits, MicroBatcher.Limits::maxQueueLength)
                .description("The most ledger commands that may wait (--spend-queue-length)")
                .register(metrics);
    }

    /** Spends, once per idempotency key. */
    public SpendResult spend(SpendRequest request) {
        return (SpendResult) submitOnce(
                new LedgerCommand.Spend(request, Ids.spending()),
                request.idempotencyKey(),
                new SpendResult.IdempotencyKeyInUse());
    }

    /** Reverts all that is left of the spending. */
    public RevertResult revert(String accountId, String spendingId) {
        return (RevertResult) batcher.submit(new LedgerCommand.Revert(accountId, spendingId));
    }

    /** Reverts {@code amount} tokens of the spending, once per idempotency key. */
    public RevertResult revert(String accountId, String spendingId, long amount, Optional<String> idempotencyKey) {
        return (RevertResult) submitOnce(
                new LedgerCommand.Revert(accountId, spendingId, Optional.of(amount), idempotencyKey),
                idempotencyKey,
                new RevertResult.IdempotencyKeyInUse());
    }

    /** Holds {@code amount} tokens for {@code lifetime} (CONTRACT §8). */
    public ReserveResult reserve(String accountId, long amount, Duration lifetime, Optional<String> idempotencyKey) {
        return (ReserveResult) submitOnce(
                new LedgerCommand.Reserve(accountId, amount, lifetime, idempotencyKey, Ids.reservation()),
                idempotencyKey,
                new ReserveResult.IdempotencyKeyInUse());
    }

    /** Settles the reservation for {@code amount}, or for all it holds when empty. */
    public SettleResult settle(String accountId, String reservationId, Optional<Long> amount) {
        return (SettleResult)
                batcher.submit(new LedgerCommand.Settle(accountId, reservationId, amount, Ids.spending()));
    }

    public ReleaseResult release(String accountId, String reservationId) {
        return (ReleaseResult) batcher.submit(new LedgerCommand.Release(accountId, reservationId));
    }

    /**
     * Submits a command; one under an idempotency key that is already in flight on this node is refused
     * at once ({@code inUse}) rather than queued behind its twin.
     */
    private LedgerOutcome submitOnce(LedgerCommand command, Optional<String> idempotencyKey, LedgerOutcome inUse) {
        if (idempotencyKey.isEmpty()) {
            return batcher.submit(command);
        }
        IdempotencyScope scope = new IdempotencyScope(command.accountId(), idempotencyKey.get());
        if (!keysInFlight.add(scope)) {
            return inUse;
        }
        try {
            return batcher.submit(command);
        } finally {
            keysInFlight.remove(scope);
        }
    }

    /** Creates the account; a positive opening balance is its first credit. */
    public OpenResult open(Account account) {
        return (OpenResult) batcher.submit(new LedgerCommand.Open(account));
    }

    public CreditResult credit(String accountId, long amount, String reason, Optional<Instant> expiresAt) {
        return (CreditResult) batcher.submit(new LedgerCommand.Credit(accountId, amount, reason, expiresAt));
    }

    public PlanChangeResult changePlan(String accountId, String planId) {
        return (PlanChangeResult) batcher.submit(new LedgerCommand.ChangePlan(accountId, planId));
    }

    /**
     * Brings the account up to date if {@code dueAt} (as a read found it) has come, so that a read never
     * shows a stale period or an expired grant.
     *
     * @return true when it did, and the read should be repeated
     */
    public boolean catchUpIfDue(String accountId, Instant dueAt) {
        if (dueAt.isAfter(clock.instant())) {
            return false;
        }
        batcher.submit(new LedgerCommand.Touch(accountId));
        return true;
    }

    /** Brings the accounts up to date: the background sweep's renewals and expiries. */
    public void catchUp(List<String> accountIds) {
        batcher.submitAll(
                accountIds.stream().<LedgerCommand>map(LedgerCommand.Touch::new).toList());
    }

    /**
     * Applies the batch; if it fails, applies each command alone so that one bad command cannot fail
     * the others, and a command whose first attempt may have landed is not applied twice. An
     * unreachable database fails the whole batch at once: retrying each command would only make every
     * caller wait for one connection timeout per command.
     */
    private void applyBatch(List<Job<LedgerCommand, LedgerOutcome>> batch) {
        batchSizes.record(batch.size());
        batchTimes.record(() -> {
            try {
                complete(batch, apply(batch.stream().map(Job::item).toList(), false));
                return;
            } catch (DatabaseUnavailableException e) {
                batch.forEach(job -> job.fail(e));
                return;
            } catch (RuntimeException e) {
                LOG.warn("A batch of {} failed ({}); applying its commands one by one", batch.size(), e.toString());
            }
            for (Job<LedgerCommand, LedgerOutcome> job : batch) {
                try {
                    complete(List.of(job), apply(List.of(job.item()), true));
                } catch (RuntimeException e) {
                    job.fail(e);
                }
            }
        });
    }

    private List<LedgerOutcome> apply(List<LedgerCommand> commands, boolean retry) {
        Instant now = clock.instant();
        Decision decision = store.round(
                StateQuery.of(commands, retry, now), state -> LedgerCore.decide(state, commands, now, Ids::grant));
        reservationMetrics.record(decision.changes());
        return decision.outcomes();
    }

    private static void complete(List<Job<LedgerCommand, LedgerOutcome>> batch, List<LedgerOutcome> outcomes) {
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).complete(outcomes.get(i));
        }
    }

    /** Stops taking commands, commits what is queued, and stops the writer. */
    @Override
    public void close() {
        batcher.close();
    }
}
