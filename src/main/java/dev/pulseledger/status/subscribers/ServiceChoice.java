package dev.pulseledger.status.subscribers;

import java.util.Collections;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/** The services a subscriber follows: every one (also those added later), or a chosen few. */
public record ServiceChoice(boolean all, SortedSet<String> services) {
    /** Most services one subscriber may choose; a bound on what a stranger's request may store. */
    public static final int MAX_SERVICES = 100;

    public ServiceChoice {
        services = Collections.unmodifiableSortedSet(new TreeSet<>(services));
        if (all && !services.isEmpty()) {
            throw new IllegalArgumentException("All services, or a chosen few: not both");
        }
        if (services.size() > MAX_SERVICES) {
            throw new IllegalArgumentException("At most " + MAX_SERVICES + " services");
        }
    }

    public static ServiceChoice everything() {
        return new ServiceChoice(true, new TreeSet<>());
    }

    /** The chosen services, or all of them when {@code services} is empty (JSON's null). */
    public static ServiceChoice of(Optional<? extends java.util.Collection<String>> services) {
        return services.map(chosen -> new ServiceChoice(false, new TreeSet<>(chosen)))
                .orElseGet(ServiceChoice::everything);
    }
}
