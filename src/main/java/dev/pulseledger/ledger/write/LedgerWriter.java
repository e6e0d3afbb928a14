package dev.pulseledger.ledger.write;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.ledger.core.Batch;
import dev.pulseledger.ledger.core.CancelPlanChangeResult;
import dev.pulseledger.ledger.core.CreditResult;
import dev.pulseledger.ledger.core.Decision;
import dev.pulseledger.ledger.core.InPeriodChangeResult;
import dev.pulseledger.ledger.core.LedgerCommand;
import dev.pulseledger.ledger.core.LedgerCore;
import dev.pulseledger.ledger.core.LedgerOutcome;
import dev.pulseledger.ledger.core.LedgerState.IdempotencyScope;
import dev.pulseledger.ledger.core.OpenResult;
import dev.pulseledger.ledger.core.PlanChangeResult;
import dev.pulseledger.ledger.core.PlanChangeTiming;
import dev.pulseledger.ledger.core.ReleaseResult;
import dev.pulseledger.ledger.core.ReserveResult;
import dev.pulseledger.ledger.core.RevertResult;
import dev.pulseledger.ledger.core.RevokeResult;
import dev.pulseledger.ledger.core.SettleResult;
import dev.pulseledger.ledger.core.SlaCreditResult;
import dev.pulseledger.ledger.core.SlaMeasurement;
import dev.pulseledger.ledger.core.SpendRequest;
import dev.pulseledger.ledger.core.SpendResult;
import dev.pulseledger.ledger.core.StateQuery;
import dev.pulseledger.ledger.db.AccountsBusyException;
import dev.pulseledger.ledger.db.LedgerStore;
import dev.pulseledger.store.DatabaseUnavailableException;
import dev.pulseledger.store.Fault;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.MicroBatcher;
import dev.pulseledger.store.MicroBatcher.Job;
import dev.pulseledger.store.OutcomeUnknownException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one road of every balance change: commands are group-committed (one round of {@link LedgerCore}
 * and the {@link LedgerStore} per batch), and each caller is answered only after the commit. A batch
 * never waits for an account locked elsewhere: that account's commands leave it for their own lane
 * ({@link BusyAccountLanes}) and the others commit at once.
 */
public final class LedgerWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LedgerWriter.class);
    /** How far a batch may be decided after this node's clock before it counts as a clock behind. */
    private static final Duration CLOCK_BEHIND = Duration.ofSeconds(1);

    private final LedgerStore store;
    private final Clock clock;
    private final Set<IdempotencyScope> keysInFlight = ConcurrentHashMap.newKeySet();
    private final DistributionSummary batchSizes;
    private final Timer batchTimes;
    private final Counter divertedCommands;
    private final Counter batchesAfterClock;
    private final MicroBatcher<QueuedCommand<?>, LedgerOutcome> batcher;
    private final BusyAccountLanes lanes;
    private final ReservationMetrics reservationMetrics;

    /**
     * @param busyAccounts how long a command waits for its account's lock when another transaction holds
     *     it, and how many such accounts wait at once
     */
    public LedgerWriter(
            LedgerStore store,
            Clock clock,
            MicroBatcher.Limits limits,
            BusyAccountLanes.Limits busyAccounts,
            MeterRegistry metrics) {
        this.store = store;
        this.clock = clock;
        this.lanes = new BusyAccountLanes(busyAccounts, this::applyInLane);
        this.batchSizes = DistributionSummary.builder("pulseledger.spend.batch.size")
                .description("Ledger commands committed together in one transaction")
                .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
                .register(metrics);
        this.batchTimes = Timer.builder("pulseledger.spend.batch")
                .description("Time to decide and commit one batch of ledger commands")
                .register(metrics);
        this.reservationMetrics = new ReservationMetrics(metrics);
        this.divertedCommands = Counter.builder("pulseledger.spend.diverted")
                .description("Ledger commands moved out of the writer's batch because another transaction held"
                        + " their account's lock")
                .register(metrics);
        this.batchesAfterClock = Counter.builder("pulseledger.ledger.clock.behind")
                .description("Ledger batches written more than a second after this node's clock: an account's newest"
                        + " line was later (another node's clock is ahead, or this one was set back)")
                .register(metrics);
        Gauge.builder("pulseledger.spend.busy.accounts", lanes, BusyAccountLanes::size)
                .description(
                        "Accounts whose commands wait for their lock, held elsewhere, in transactions of their own")
                .register(metrics);
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
        return submitOnce(
                new LedgerCommand.Spend(request, Ids.spending()),
                request.idempotencyKey(),
                new SpendResult.IdempotencyKeyInUse());
    }

    /** Reverts all that is left of the spending. */
    public RevertResult revert(String accountId, String spendingId) {
        return submit(new LedgerCommand.Revert(accountId, spendingId));
    }

    /** Reverts {@code amount} tokens of the spending, once per idempotency key. */
    public RevertResult revert(String accountId, String spendingId, long amount, Optional<String> idempotencyKey) {
        return submitOnce(
                new LedgerCommand.Revert(accountId, spendingId, Optional.of(amount), idempotencyKey),
                idempotencyKey,
                new RevertResult.IdempotencyKeyInUse());
    }

    /**
     * Holds {@code amount} tokens of {@code pool} for {@code lifetime}, within the budgets of {@code keyId}
     * (CONTRACT §8, §14).
     */
    public ReserveResult reserve(
            String accountId,
            String pool,
            long amount,
            Duration lifetime,
            Optional<String> idempotencyKey,
            Optional<String> keyId) {
        return submitOnce(
                new LedgerCommand.Reserve(accountId, amount, lifetime, idempotencyKey, Ids.reservation(), pool, keyId),
                idempotencyKey,
                new ReserveResult.IdempotencyKeyInUse());
    }

    /** Settles the reservation for {@code amount}, or for all it holds when empty. */
    public SettleResult settle(String accountId, String reservationId, Optional<Long> amount) {
        return submit(new LedgerCommand.Settle(accountId, reservationId, amount, Ids.spending()));
    }

    public ReleaseResult release(String accountId, String reservationId) {
        return submit(new LedgerCommand.Release(accountId, reservationId));
    }

    /**
     * Submits a command; one under an idempotency key that is already in flight on this node is refused
     * at once ({@code inUse}) rather than queued behind its twin.
     */
    private <R extends LedgerOutcome> R submitOnce(LedgerCommand<R> command, Optional<String> idempotencyKey, R inUse) {
        if (idempotencyKey.isEmpty()) {
            return submit(command);
        }
        IdempotencyScope scope = new IdempotencyScope(command.accountId(), idempotencyKey.get());
        if (!keysInFlight.add(scope)) {
            return inUse;
        }
        try {
            return submit(command);
        } finally {
            keysInFlight.remove(scope);
        }
    }

    /** Creates the account; a positive opening balance is its first credit. */
    public OpenResult open(Account account) {
        return submit(new LedgerCommand.Open(account));
    }

    /** Grants {@code amount} tokens in {@code pool}, which the account gets if it lacks it (CONTRACT §7, §14). */
    public CreditResult credit(String accountId, String pool, long amount, String reason, Optional<Instant> expiresAt) {
        return submit(new LedgerCommand.Credit(accountId, amount, reason, expiresAt, pool));
    }

    /** Records one measured period of the account's SLA, crediting a breach once (CONTRACT §13). */
    public SlaCreditResult slaCredit(String accountId, SlaMeasurement measurement) {
        return submit(new LedgerCommand.SlaCredit(accountId, measurement));
    }

    /** Takes back what is left of one credit grant of the account, once (CONTRACT §13). */
    public RevokeResult revokeGrant(String accountId, String grantId) {
        return submit(new LedgerCommand.RevokeGrant(accountId, grantId));
    }

    public PlanChangeResult changePlan(String accountId, String planId) {
        return submit(new LedgerCommand.ChangePlan(accountId, planId));
    }

    /** Moves the account to another plan within its period, now or at its end (CONTRACT §13). */
    public InPeriodChangeResult changePlanInPeriod(String accountId, String planId, PlanChangeTiming when) {
        return submit(new LedgerCommand.ChangePlanInPeriod(accountId, planId, when));
    }

    /** Drops the plan change that waits for the account's period to end. */
    public CancelPlanChangeResult cancelPlanChange(String accountId) {
        return submit(new LedgerCommand.CancelPlanChange(accountId));
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
        submit(new LedgerCommand.Touch(accountId));
        return true;
    }

    /**
     * Brings the accounts up to date: the background sweep's renewals and expiries. An account locked
     * elsewhere is skipped at once rather than waited for: the next sweep comes back to it.
     */
    public void catchUp(List<String> accountIds) {
        List<QueuedCommand<?>> touches = accountIds.stream()
                .<QueuedCommand<?>>map(id -> new QueuedCommand<>(new LedgerCommand.Touch(id), false))
                .toList();
        for (Optional<RuntimeException> failure : batcher.submitAll(touches)) {
            if (failure.isPresent() && !isBusy(failure.get())) {
                throw failure.get();
            }
        }
    }

    private static boolean isBusy(RuntimeException failure) {
        return failure instanceof DatabaseUnavailableException unavailable && unavailable.fault() == Fault.ACCOUNT_BUSY;
    }

    /** Queues the command, which waits for its account if another transaction holds its lock. */
    private <R extends LedgerOutcome> R submit(LedgerCommand<R> command) {
        QueuedCommand<R> queued = new QueuedCommand<>(command, true);
        batcher.submit(queued);
        return queued.outcome();
    }

    private void applyBatch(List<Job<QueuedCommand<?>, LedgerOutcome>> batch) {
        batchSizes.record(batch.size());
        batchTimes.record(() -> applyWithoutWaiting(batch, false));
    }

    /**
     * Commits the jobs in a round that waits for no account's lock: the commands of an account locked
     * elsewhere, and of one whose earlier commands still wait in its lane, go to that lane, and the rest
     * commits at once (a round that met a busy account wrote nothing, and runs again without it).
     * Commands that would rather not wait for a busy account are refused after that commit.
     */
    private void applyWithoutWaiting(List<Job<QueuedCommand<?>, LedgerOutcome>> jobs, boolean retry) {
        List<Job<QueuedCommand<?>, LedgerOutcome>> refused = new ArrayList<>();
        Set<String> busy = Set.of();
        List<Job<QueuedCommand<?>, LedgerOutcome>> left = jobs;
        while (true) {
            BusyAccountLanes.Diverted diverted = lanes.divert(left, busy);
            divertedCommands.increment(
                    left.size() - diverted.kept().size() - diverted.refused().size());
            refused.addAll(diverted.refused());
            left = diverted.kept();
            try {
                apply(left, Duration.ZERO, retry);
                break;
            } catch (AccountsBusyException e) {
                busy = e.accountIds();
            }
        }
        refused.forEach(job -> job.fail(BusyAccountLanes.busy()));
    }

    /** One round of a busy account's lane, waiting at most {@code lockWait} for its lock. */
    private void applyInLane(List<Job<QueuedCommand<?>, LedgerOutcome>> jobs, Duration lockWait) {
        try {
            // Any of them may have landed in a batch whose commit failed: read as a retry does.
            apply(jobs, lockWait, true);
        } catch (RuntimeException e) {
            jobs.forEach(job -> job.fail(e));
        }
    }

    /**
     * Applies the jobs in one round; if it fails, applies each alone so that one bad command cannot fail
     * the others, and a command whose first attempt may have landed is not applied twice. An unreachable
     * database, or an account's lock not granted in time, fails them all at once: retrying each command
     * would only make every caller wait for one timeout per command.
     *
     * @throws AccountsBusyException when {@code lockWait} is zero and an account is locked elsewhere;
     *     nothing was written or answered then
     */
    private void apply(List<Job<QueuedCommand<?>, LedgerOutcome>> jobs, Duration lockWait, boolean retry) {
        if (jobs.isEmpty()) {
            return;
        }
        try {
            complete(jobs, round(jobs, lockWait, retry));
            return;
        } catch (AccountsBusyException e) {
            throw e;
        } catch (DatabaseUnavailableException e) {
            jobs.forEach(job -> job.fail(e));
            return;
        } catch (RuntimeException e) {
            if (retry && jobs.size() == 1) {
                jobs.getFirst().fail(e);
                return;
            }
            LOG.warn("A batch of {} failed ({}); applying its commands one by one", jobs.size(), e.toString());
        }
        for (Job<QueuedCommand<?>, LedgerOutcome> job : jobs) {
            if (lockWait.isZero()) {
                applyWithoutWaiting(List.of(job), true);
            } else {
                apply(List.of(job), lockWait, true);
            }
        }
    }

    private List<LedgerOutcome> round(
            List<Job<QueuedCommand<?>, LedgerOutcome>> jobs, Duration lockWait, boolean retry) {
        List<LedgerCommand<?>> commands =
                jobs.stream().<LedgerCommand<?>>map(job -> job.item().command()).toList();
        Instant now = clock.instant();
        Decision decision = store.round(StateQuery.of(commands, retry, now), lockWait, state -> {
            Batch batch = LedgerCore.batch(state, now, Ids::grant);
            List<LedgerOutcome> outcomes = new ArrayList<>(jobs.size());
            for (Job<QueuedCommand<?>, LedgerOutcome> job : jobs) {
                outcomes.add(job.item().decideIn(batch));
            }
            return new Decision(outcomes, batch.changes());
        });
        reservationMetrics.record(decision.changes());
        if (decision.changes().at().isAfter(now.plus(CLOCK_BEHIND))) {
            batchesAfterClock.increment();
        }
        return decision.outcomes();
    }

    private static void complete(List<Job<QueuedCommand<?>, LedgerOutcome>> jobs, List<LedgerOutcome> outcomes) {
        for (int i = 0; i < jobs.size(); i++) {
            jobs.get(i).complete(outcomes.get(i));
        }
    }

    /** Stops taking commands, commits what is queued, and stops the writer. */
    @Override
    public void close() {
        batcher.close();
        lanes.close();
    }
}
