package dev.pulseledger.http;

import dev.pulseledger.keys.Actor;

/**
 * Where the route table records each change an operator makes: who, with what, which route, how it ended.
 * The entry is written before the change runs, so no change can happen without one; a node that stops
 * before answering leaves it with an unknown outcome.
 */
public interface AuditTrail {
    /** Records a change about to run (its path as sent, percent-encoded), its outcome not yet known; returns the entry's number. */
    long begin(Actor actor, String method, String path);

    /** The change was answered {@code status}: kept as its outcome when it changed something, else removed. */
    void end(long entry, int status, boolean changed);
}
