package dev.pulseledger.app;

import dev.pulseledger.http.ClientAddresses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.keys.AccessFeed;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.operators.AuditLog;
import dev.pulseledger.operators.AuditRoutes;
import dev.pulseledger.operators.Credentials;
import dev.pulseledger.operators.OperatorDirectory;
import dev.pulseledger.operators.OperatorRoutes;
import dev.pulseledger.operators.OperatorStore;
import dev.pulseledger.operators.SignInLimiter;
import java.time.Clock;
import java.util.Optional;

/** Operators (CONTRACT §17): who they are, their admin keys and roles, how they sign in, and the audit log. */
public record OperatorsModule(
        OperatorStore store,
        OperatorDirectory directory,
        AuditLog audit,
        Credentials credentials,
        SignInLimiter signInLimiter,
        ClientAddresses clients) {

    /** Loads every operator and follows {@code feed}, which must not have started reading yet. */
    public static OperatorsModule build(
            DatabaseModule db,
            AccessChangeLog changes,
            AccessFeed feed,
            Optional<String> configuredKeyHash,
            ClientAddresses clients,
            Clock clock) {
        OperatorStore store = new OperatorStore(db.main(), changes);
        OperatorDirectory directory = OperatorDirectory.load(store, configuredKeyHash, feed);
        SignInLimiter limiter = new SignInLimiter(db.main(), clock);
        return new OperatorsModule(
                store,
                directory,
                new AuditLog(db.main(), clock),
                new Credentials(db.main(), limiter, clock),
                limiter,
                clients);
    }

    public void register(RouteTable routes, Authenticator authenticator, Clock clock) {
        new OperatorRoutes(store, credentials, authenticator, clock).register(routes);
        new AuditRoutes(audit).register(routes);
    }
}
