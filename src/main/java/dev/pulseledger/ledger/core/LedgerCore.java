package dev.pulseledger.ledger.core;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The rules of every balance change (CONTRACT §3, §6, §7, §8), free of SQL, HTTP and clocks: given the
 * locked state of the accounts a batch touches, its commands in queue order and the time, it decides each
 * command's outcome and the one change set that the store then writes. Commands later in a batch see what
 * earlier ones decided. The rules live by concern in {@link SpendRules}, {@link ReservationRules},
 * {@link AccountRules}, {@link PeriodRules}, {@link HoldRules} and {@link GrantRules}.
 *
 * <p>Every token sits in a grant. Before an account's first command in a batch, the account is brought up
 * to date: an ended period is renewed (unused allowance above the rollover expires, the allowance of the
 * period containing now is granted: one renewal however long the account was idle) and grants whose
 * expiry has come expire.
 */
public final class LedgerCore {
    /** The most tokens one account may hold: far from overflow, far beyond any real use. */
    public static final long MAX_BALANCE = 1_000_000_000_000_000L;

    private LedgerCore() {}

    /**
     * A batch to decide on the state read for it. The batch happens at {@code now}, or at the newest
     * ledger line of its accounts when a clock is behind that (it went back, or another node's runs
     * ahead): an account's lines never go back in time, so their time order is their sequence order (V181).
     *
     * @param grantIds a source of fresh grant ids
     */
    public static Batch batch(LedgerState state, Instant now, Supplier<String> grantIds) {
        Instant at = now;
        for (LedgerState.AccountState account : state.accounts().values()) {
            if (account.lastLineAt().isPresent() && account.lastLineAt().get().isAfter(at)) {
                at = account.lastLineAt().get();
            }
        }
        return new Batch(state, at, grantIds);
    }

    /** Decides a batch of commands on the state read for them: outcomes in order, and the change set. */
    public static Decision decide(
            LedgerState state, List<? extends LedgerCommand<?>> commands, Instant now, Supplier<String> grantIds) {
        Batch batch = batch(state, now, grantIds);
        List<LedgerOutcome> outcomes = new ArrayList<>(commands.size());
        for (LedgerCommand<?> command : commands) {
            outcomes.add(batch.decide(command));
        }
        return new Decision(outcomes, batch.changes());
    }
}
