package dev.pulseledger.db;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Read-your-writes on this node: remembers, per requester (an account, or the operators as one), when its
 * last write request ended and whether one is under way, so that its reads go to a replica only once that
 * replica is known to hold everything committed by then (see {@link Replica#caughtUpToNanos()}).
 *
 * <p>The requester of the running request is held per thread: Helidon runs a request's filters and
 * handler on one virtual thread, and {@link #actAs} is always undone in a {@code finally}.
 */
public final class OwnWrites {
    /** For a requester with a write under way: no replica can be known to hold it yet. */
    static final long WRITE_UNDER_WAY = Long.MAX_VALUE;
    /** For a requester without a remembered write (or no requester): any fresh replica will do. */
    static final long NO_WRITE = Long.MIN_VALUE;

    private static final ThreadLocal<Optional<String>> REQUESTER = ThreadLocal.withInitial(Optional::empty);

    /** A requester's writes under way and when its last one ended (System.nanoTime). */
    private record Mark(int underWay, long lastEndedNanos) {}

    private final Map<String, Mark> marks = new ConcurrentHashMap<>();

    /** The requester key of a caller's account. */
    public static String account(String accountId) {
        return "account:" + accountId;
    }

    /** The requester key of every request without a caller key: operators, the console, anonymous visitors. */
    public static String operators() {
        return "operators";
    }

    /** Makes reads on this thread those of {@code requester} until {@link #clear()}. */
    public static void actAs(String requester) {
        REQUESTER.set(Optional.of(requester));
    }

    public static void clear() {
        REQUESTER.remove();
    }

    /** A write request of {@code requester} begins. */
    public void writing(String requester) {
        marks.compute(
                requester,
                (key, mark) ->
                        mark == null ? new Mark(1, NO_WRITE) : new Mark(mark.underWay() + 1, mark.lastEndedNanos()));
    }

    /** A write request ends; {@code mayHaveWritten}: its answer does not rule out a commit. */
    public void wrote(String requester, boolean mayHaveWritten, long endedNanos) {
        marks.computeIfPresent(requester, (key, mark) -> {
            Mark next = new Mark(mark.underWay() - 1, mayHaveWritten ? endedNanos : mark.lastEndedNanos());
            return next.underWay() == 0 && next.lastEndedNanos() == NO_WRITE ? null : next;
        });
    }

    /**
     * The moment a replica must be caught up past to serve the current thread's requester: {@link
     * #NO_WRITE} when it has no remembered write, {@link #WRITE_UNDER_WAY} while one is under way.
     */
    long mustHoldUpToNanos() {
        Optional<String> requester = REQUESTER.get();
        if (requester.isEmpty()) {
            return NO_WRITE;
        }
        Mark mark = marks.get(requester.get());
        if (mark == null) {
            return NO_WRITE;
        }
        return mark.underWay() > 0 ? WRITE_UNDER_WAY : mark.lastEndedNanos();
    }

    /**
     * Forgets the writes that ended before {@code beforeNanos}: a replica more than the allowed lag behind
     * serves nobody, so an older write can no longer be missed. The map so holds at most the requesters
     * that wrote within the allowed lag (and a probe interval).
     */
    void forgetBefore(long beforeNanos) {
        marks.values().removeIf(mark -> mark.underWay() == 0 && mark.lastEndedNanos() - beforeNanos < 0);
    }

    int remembered() {
        return marks.size();
    }
}
