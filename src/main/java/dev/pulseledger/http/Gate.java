package dev.pulseledger.http;

import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/** Who may call the routes under one path prefix, checked by the {@link RouteTable} before their handlers run. */
@FunctionalInterface
public interface Gate {
    /**
     * Lets the request through (true), or answers it itself and returns false; it may also refuse by
     * throwing a {@link ProblemException}. {@code rule} says which roles may call the route.
     */
    boolean admit(ServerRequest req, ServerResponse res, RoleRules.Rule rule);
}
