package dev.pulseledger.tokens;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Spreads spends and reverts over several group-commit writers by account: batches for different
 * accounts commit in parallel, while all commands of one account share one queue and keep their
 * order. Lanes lock disjoint sets of accounts, so they never wait for each other on one node.
 */
public final class WriterLanes implements SpendLedger, AutoCloseable {
    private final List<GroupCommitLedger> lanes;

    private WriterLanes(List<GroupCommitLedger> lanes) {
        this.lanes = List.copyOf(lanes);
    }

    /** Starts {@code count} lanes, each made by {@code lane}. */
    public static WriterLanes start(int count, IntFunction<GroupCommitLedger> lane) {
        if (count < 1) {
            throw new IllegalArgumentException("at least one writer lane is needed: " + count);
        }
        List<GroupCommitLedger> lanes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            lanes.add(lane.apply(i));
        }
        return new WriterLanes(lanes);
    }

    @Override
    public SpendResult spend(SpendRequest request) {
        return lane(request.accountId()).spend(request);
    }

    @Override
    public RevertResult revert(String accountId, String spendingId) {
        return lane(accountId).revert(accountId, spendingId);
    }

    private GroupCommitLedger lane(String accountId) {
        return lanes.get(Math.floorMod(accountId.hashCode(), lanes.size()));
    }

    /** Closes every lane; each finishes what is queued first. */
    @Override
    public void close() {
        lanes.forEach(GroupCommitLedger::close);
    }
}
