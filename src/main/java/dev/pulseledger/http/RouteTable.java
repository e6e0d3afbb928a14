package dev.pulseledger.http;

import dev.pulseledger.keys.Actor;
import dev.pulseledger.keys.Caller;
import io.helidon.http.Method;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Registers every route with Helidon and remembers it, so that unknown paths get 404, known paths
 * with the wrong method get 405 with {@code Allow}, and the OpenAPI test can compare both lists.
 * Who may call a route follows from its path, here and nowhere else: every route under {@value
 * #API_PREFIX} needs a caller key, checked before its handler runs, which then reads the caller with
 * {@link #caller(ServerRequest)}; every route under {@value
 * #ADMIN_PREFIX} needs an operator's admin key whose role {@link RoleRules} lets call it before its
 * handler runs (else 403 {@code forbidden_for_role}), and each change it makes is written to the
 * {@link AuditTrail} with the operator's name; every route under {@value
 * #CONSOLE_PREFIX} passes the console's {@link Gate} (a signed-in session), but for the few routes the
 * console declares open (sign-in, its assets). A console route registered before its gate is refused.
 */
public final class RouteTable {
    /** One route: an HTTP method on a path template such as {@code /api/tokens/spend/{amount}}. */
    public record Route(String method, String pathTemplate) {}

    public static final String API_PREFIX = "/api/";
    public static final String ADMIN_PREFIX = "/admin/";
    /** The request context's key of the caller that the rule of an {@value #API_PREFIX} route found. */
    private static final Object CALLER = new Object();

    public static final String CONSOLE_PREFIX = "/console";

    /** The gate in front of the console's routes, and the route templates it leaves open. */
    private record ConsoleRule(Gate gate, Set<String> openTemplates) {}

    private final HttpRouting.Builder routing;
    private final Access access;
    private final AuditTrail audit;
    private final Map<String, Pattern> patterns = new LinkedHashMap<>();
    private final Map<String, Set<String>> methodsByTemplate = new LinkedHashMap<>();
    private final List<Route> routes = new ArrayList<>();
    private Optional<ConsoleRule> console = Optional.empty();

    public RouteTable(HttpRouting.Builder routing, Access access, AuditTrail audit) {
        this.routing = routing;
        this.access = access;
        this.audit = audit;
    }

    /**
     * Installs the console's gate: every route under {@value #CONSOLE_PREFIX} registered from now on
     * passes it first, except the templates in {@code openTemplates}.
     */
    public RouteTable consoleGate(Gate gate, Set<String> openTemplates) {
        if (console.isPresent()) {
            throw new IllegalStateException("The console's gate is installed once");
        }
        console = Optional.of(new ConsoleRule(gate, Set.copyOf(openTemplates)));
        return this;
    }

    public RouteTable get(String path, Handler handler) {
        return add(Method.GET, path, handler);
    }

    public RouteTable post(String path, Handler handler) {
        return add(Method.POST, path, handler);
    }

    public RouteTable put(String path, Handler handler) {
        return add(Method.PUT, path, handler);
    }

    public RouteTable patch(String path, Handler handler) {
        return add(Method.PATCH, path, handler);
    }

    public RouteTable delete(String path, Handler handler) {
        return add(Method.DELETE, path, handler);
    }

    private RouteTable add(Method method, String pathTemplate, Handler handler) {
        Handler guarded = guarded(method, pathTemplate, handler);
        routing.route(method, pathTemplate, guarded);
        if (method.equals(Method.GET)) {
            routing.route(Method.HEAD, pathTemplate, guarded);
        }
        patterns.computeIfAbsent(pathTemplate, RouteTable::compile);
        Set<String> methods = methodsByTemplate.computeIfAbsent(pathTemplate, t -> new TreeSet<>());
        methods.add(method.text());
        if (method.equals(Method.GET)) {
            methods.add(Method.HEAD.text());
        }
        routes.add(new Route(method.text(), pathTemplate));
        return this;
    }

    /** Installs the catch-all that answers 404 or 405; call it after every route is added. */
    public void finish() {
        routing.any((req, res) -> {
            Set<String> allowed = allowedMethods(req.path().path());
            if (allowed.isEmpty()) {
                throw new ProblemException(ProblemCode.NOT_FOUND, "No resource lives at this path.");
            }
            String allow = String.join(", ", allowed);
            throw new ProblemException(ProblemCode.METHOD_NOT_ALLOWED, "This path accepts " + allow + ".")
                    .withHeader("Allow", allow);
        });
    }

    /** The methods accepted on a concrete path; empty when no route matches it. */
    public Set<String> allowedMethods(String path) {
        Set<String> allowed = new TreeSet<>();
        patterns.forEach((template, pattern) -> {
            if (pattern.matcher(path).matches()) {
                allowed.addAll(methodsByTemplate.get(template));
            }
        });
        return allowed;
    }

    public List<Route> routes() {
        return Collections.unmodifiableList(routes);
    }

    /**
     * The caller that this table's rule found for a request to an {@value #API_PREFIX} route, before its
     * handler ran: how such a handler learns who calls.
     */
    public static Caller caller(ServerRequest req) {
        return req.context()
                .get(CALLER, Caller.class)
                .orElseThrow(() -> new IllegalStateException("Only the handler of an " + API_PREFIX
                        + " route has a caller: " + req.path().path()));
    }

    /** The one access rule: the handler behind the check its path asks for. */
    private Handler guarded(Method method, String pathTemplate, Handler handler) {
        if (pathTemplate.startsWith(API_PREFIX)) {
            return callerOnly(handler);
        }
        if (pathTemplate.startsWith(ADMIN_PREFIX)) {
            return adminOnly(method, RoleRules.forTemplate(pathTemplate), handler);
        }
        if (pathTemplate.equals(CONSOLE_PREFIX) || pathTemplate.startsWith(CONSOLE_PREFIX + "/")) {
            ConsoleRule rule = console.orElseThrow(() -> new IllegalStateException(
                    "A console route needs the console's gate installed first: " + pathTemplate));
            return rule.openTemplates().contains(pathTemplate)
                    ? handler
                    : gated(rule.gate(), RoleRules.forConsoleTemplate(pathTemplate), handler);
        }
        return handler;
    }

    /** The caller rule (CONTRACT §2): a caller key of an account that may call, else 401 or 403 before the handler. */
    private Handler callerOnly(Handler handler) {
        return (req, res) -> {
            req.context().register(CALLER, access.caller(req));
            handler.handle(req, res);
        };
    }

    private static Handler gated(Gate gate, RoleRules.Rule rule, Handler handler) {
        return (req, res) -> {
            if (gate.admit(req, res, rule)) {
                handler.handle(req, res);
            }
        };
    }

    /**
     * The admin rule: an admin key, a role the route's rule allows, and for a change an audit entry
     * written before the response leaves (so whoever sees the answer can read the entry).
     */
    private Handler adminOnly(Method method, RoleRules.Rule rule, Handler handler) {
        boolean reads = method.equals(Method.GET);
        return (req, res) -> {
            Actor actor = access.requireAdmin(req);
            String verb = req.prologue().method().text();
            if (!rule.allows(actor.role(), verb)) {
                throw new ProblemException(
                        ProblemCode.FORBIDDEN_FOR_ROLE,
                        "The role " + actor.role().text() + " may not " + verb + " this resource.");
            }
            if (!reads) {
                long entry = audit.begin(actor, verb, req.path().rawPath());
                res.beforeSend(() -> {
                    int status = res.status().code();
                    audit.end(entry, status, status >= 200 && status < 300);
                });
            }
            handler.handle(req, res);
        };
    }

    private static Pattern compile(String template) {
        StringBuilder regex = new StringBuilder();
        for (String segment : template.split("/", -1)) {
            if (!regex.isEmpty() || !segment.isEmpty()) {
                regex.append('/');
            }
            if (segment.startsWith("{") && segment.endsWith("}")) {
                regex.append("[^/]+");
            } else {
                regex.append(Pattern.quote(segment));
            }
        }
        return Pattern.compile(regex.toString());
    }
}
