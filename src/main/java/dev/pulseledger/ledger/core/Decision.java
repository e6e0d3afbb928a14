package dev.pulseledger.ledger.core;

import java.util.List;

/** What {@link LedgerCore} decided for a batch: one outcome per command, in order, and the changes. */
public record Decision(List<LedgerOutcome> outcomes, ChangeSet changes) {
    public Decision {
        outcomes = List.copyOf(outcomes);
    }
}
