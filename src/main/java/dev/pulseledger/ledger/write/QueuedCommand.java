package dev.pulseledger.ledger.write;

import dev.pulseledger.ledger.core.Batch;
import dev.pulseledger.ledger.core.LedgerCommand;
import dev.pulseledger.ledger.core.LedgerOutcome;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A command in the writer's queue, with the outcome of its latest decision in the type its command
 * names; {@code waitsForBusyAccount} is false for work that would rather skip an account locked
 * elsewhere than wait for it (the renewal sweep, which comes back to it).
 */
final class QueuedCommand<R extends LedgerOutcome> {
    private final LedgerCommand<R> command;
    private final boolean waitsForBusyAccount;
    /** Written by the writer's thread before the job completes, read by the caller after. */
    private @Nullable R outcome;

    QueuedCommand(LedgerCommand<R> command, boolean waitsForBusyAccount) {
        this.command = command;
        this.waitsForBusyAccount = waitsForBusyAccount;
    }

    LedgerCommand<R> command() {
        return command;
    }

    String accountId() {
        return command.accountId();
    }

    boolean waitsForBusyAccount() {
        return waitsForBusyAccount;
    }

    /** Decides the command in the batch; a later attempt's decision replaces an earlier one's. */
    R decideIn(Batch batch) {
        R decided = batch.decide(command);
        outcome = decided;
        return decided;
    }

    /** The outcome that committed: read only once the job has completed. */
    R outcome() {
        return Objects.requireNonNull(outcome, "A command answered before it was decided");
    }
}
