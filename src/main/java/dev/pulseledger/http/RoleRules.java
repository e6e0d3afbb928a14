package dev.pulseledger.http;

import dev.pulseledger.keys.Role;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which roles may call each admin route (CONTRACT §17), by path prefix: the one table behind the route
 * table's rule. An owner may call everything; a rule's {@code writer} role may change what lies under
 * its prefix; every role may read it unless its reads show secrets or personal data. A route under
 * {@code /admin/} that no prefix names is the owner's alone, and the route walking test fails on it, so
 * a new admin route declares its role here.
 */
public final class RoleRules {
    /** Who may read (GET, HEAD) under a prefix. */
    public enum Readers {
        /** Every role, viewers too. */
        EVERY_ROLE,
        /** Only the owner and the prefix's writer: the reads show secrets or subscribers' addresses. */
        WRITERS
    }

    /**
     * The roles for one prefix: besides the owner, {@code writers} may call every method, and {@code
     * readers} says who may read. Path parameters' names in the prefix do not matter.
     */
    public record Rule(String prefix, Set<Role> writers, Readers readers) {
        public boolean allows(Role role, String method) {
            if (role == Role.OWNER || writers.contains(role)) {
                return true;
            }
            boolean reads = method.equals("GET") || method.equals("HEAD");
            return reads && readers == Readers.EVERY_ROLE;
        }
    }

    private static final Rule OWNER_ONLY = new Rule("/admin", Set.of(), Readers.WRITERS);

    /** The table. Keep it sorted by area; the longest matching prefix wins. */
    public static final List<Rule> RULES = List.of(
            billing("/admin/accounts"),
            billing("/admin/plans"),
            billing("/admin/keys"),
            billing("/admin/reservations"),
            billing("/admin/credits"),
            billing("/admin/grants"),
            billing("/admin/usage"),
            billing("/admin/sla"),
            status("/admin/services"),
            status("/admin/service-groups"),
            status("/admin/incidents"),
            status("/admin/maintenances"),
            status("/admin/maintenance"),
            new Rule("/admin/services/{}/heartbeat", Set.of(Role.STATUS), Readers.WRITERS),
            new Rule("/admin/heartbeats", Set.of(Role.STATUS), Readers.WRITERS),
            new Rule("/admin/status-subscribers", Set.of(Role.STATUS), Readers.WRITERS),
            new Rule("/admin/webhooks", Set.of(), Readers.WRITERS),
            new Rule("/admin/operators", Set.of(), Readers.EVERY_ROLE),
            new Rule("/admin/audit", Set.of(), Readers.EVERY_ROLE));

    private static final Set<String> CONSOLE_EVERY_ROLE = Set.of("/console", "/console/sign-out", "/console/audit");

    private RoleRules() {}

    /** The rule for a route template, if the table names its prefix. */
    public static Optional<Rule> declared(String pathTemplate) {
        String path = normalized(pathTemplate);
        return RULES.stream()
                .filter(rule -> {
                    String prefix = normalized(rule.prefix());
                    return path.equals(prefix) || path.startsWith(prefix + "/");
                })
                .max(Comparator.comparingInt(rule -> rule.prefix().length()));
    }

    /** The rule in force for a route template: its declared one, or the owner's alone. */
    public static Rule forTemplate(String pathTemplate) {
        return declared(pathTemplate).orElse(OWNER_ONLY);
    }

    /**
     * The rule for a console page or form: the one of the admin route it stands for ({@code
     * /console/accounts/…} as {@code /admin/accounts/…}); the dashboard, the audit log and signing out
     * are every role's.
     */
    public static Rule forConsoleTemplate(String consoleTemplate) {
        if (CONSOLE_EVERY_ROLE.contains(consoleTemplate)) {
            return new Rule(consoleTemplate, Set.of(Role.values()), Readers.EVERY_ROLE);
        }
        return forTemplate("/admin" + consoleTemplate.substring("/console".length()));
    }

    private static String normalized(String template) {
        return template.replaceAll("\\{[^/}]*}", "{}");
    }

    private static Rule billing(String prefix) {
        return new Rule(prefix, Set.of(Role.BILLING), Readers.EVERY_ROLE);
    }

    private static Rule status(String prefix) {
        return new Rule(prefix, Set.of(Role.STATUS), Readers.EVERY_ROLE);
    }
}
