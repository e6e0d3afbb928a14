package dev.pulseledger.http;

import dev.pulseledger.keys.Actor;

/** Where the route table records each change an operator made: who, with what, which route, how it ended. */
@FunctionalInterface
public interface AuditTrail {
    void record(Actor actor, String method, String path, int status);
}
