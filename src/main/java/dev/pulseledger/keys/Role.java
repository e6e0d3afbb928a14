package dev.pulseledger.keys;

import java.util.Locale;
import java.util.Optional;

/** What an operator may do (CONTRACT §17); which routes each role reaches is decided by the route table. */
public enum Role {
    /** Everything, including operators and webhooks. */
    OWNER,
    /** Accounts, plans, keys, credits, grants, reservations, usage, SLA. */
    BILLING,
    /** Services, groups, incidents, maintenance, heartbeats, subscribers. */
    STATUS,
    /** Reads of everything but secrets and subscribers' addresses. */
    VIEWER;

    /** The role's name in JSON and in the database. */
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Role> parse(String text) {
        for (Role role : values()) {
            if (role.text().equals(text)) {
                return Optional.of(role);
            }
        }
        return Optional.empty();
    }
}
