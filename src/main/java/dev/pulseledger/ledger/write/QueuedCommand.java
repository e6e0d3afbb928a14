package dev.pulseledger.ledger.write;

import dev.pulseledger.ledger.core.LedgerCommand;

/**
 * A command in the writer's queue; {@code waitsForBusyAccount} is false for work that would rather skip
 * an account locked elsewhere than wait for it (the renewal sweep, which comes back to it).
 */
record QueuedCommand(LedgerCommand command, boolean waitsForBusyAccount) {
    String accountId() {
        return command.accountId();
    }
}
