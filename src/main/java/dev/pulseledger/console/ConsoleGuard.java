package dev.pulseledger.console;

import dev.pulseledger.console.ConsoleSessions.Session;
import dev.pulseledger.http.AuditTrail;
import dev.pulseledger.http.Gate;
import dev.pulseledger.http.HttpsRequests;
import dev.pulseledger.http.RoleRules;
import dev.pulseledger.keys.Actor;
import dev.pulseledger.keys.Secrets;
import dev.pulseledger.operators.OperatorDirectory;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The console's {@link Gate}, installed in the {@link dev.pulseledger.http.RouteTable} so that every
 * console route but sign-in and the assets passes it: a page needs a live session, a change also needs
 * that session's CSRF token in its form. What it found travels to the handler in the request's context.
 */
final class ConsoleGuard implements Gate {
    static final String COOKIE = "pl_console";
    static final String CSRF_FIELD = "csrf";
    static final String SIGN_IN = "/console/sign-in";
    /** The console routes anyone may call. */
    static final Set<String> OPEN = Set.of(SIGN_IN, ConsoleAssets.PATH);

    private static final Object ADMITTED = new Object();

    /** A page for a signed-in operator. */
    @FunctionalInterface
    interface Page {
        void handle(ServerRequest req, ServerResponse res, Session session);
    }

    /** A change by a signed-in operator, with its posted form (CSRF token already checked). */
    @FunctionalInterface
    interface Change {
        void handle(ServerRequest req, ServerResponse res, Session session, Form form);
    }

    /** What the gate found: the live session, and for a change the form it read. */
    private record Admitted(Session session, Form form) {}

    private final ConsoleSessions sessions;
    private final OperatorDirectory operators;
    private final AuditTrail audit;
    private final ConsoleView view;
    private final HttpsRequests https;

    ConsoleGuard(
            ConsoleSessions sessions,
            OperatorDirectory operators,
            AuditTrail audit,
            ConsoleView view,
            HttpsRequests https) {
        this.sessions = sessions;
        this.operators = operators;
        this.audit = audit;
        this.view = view;
        this.https = https;
    }

    /**
     * Without a live session of an operator who is not disabled, a page sends the browser to sign in
     * and a change gets 401; a change without its session's CSRF token gets 403, and so does anything
     * the operator's role may not do. Nothing changes then. A change that goes through is audited.
     */
    @Override
    public boolean admit(ServerRequest req, ServerResponse res, RoleRules.Rule rule) {
        Optional<Session> session = session(req);
        String method = req.prologue().method().text();
        boolean reads = req.prologue().method().equals(Method.GET)
                || req.prologue().method().equals(Method.HEAD);
        if (reads) {
            if (session.isEmpty()) {
                redirect(res, SIGN_IN);
                return false;
            }
            if (!rule.allows(session.get().actor().role(), method)) {
                forbidden(res, session.get());
                return false;
            }
            req.context().register(ADMITTED, new Admitted(session.get(), Form.empty()));
            return true;
        }
        if (session.isEmpty()) {
            view.render(
                    res,
                    401,
                    "message",
                    Optional.empty(),
                    Map.of(
                            "title",
                            "Signed out",
                            "message",
                            "Your session has ended, so nothing was changed. Sign in again."));
            return false;
        }
        Form form = Form.read(req);
        if (!Secrets.sameHash(session.get().csrfToken(), form.value(CSRF_FIELD))) {
            view.render(
                    res,
                    403,
                    "message",
                    Optional.of(session.get()),
                    Map.of(
                            "title",
                            "Refused",
                            "message",
                            "This form did not come from the console page, so nothing was changed."
                                    + " Reload the page and try again."));
            return false;
        }
        Actor actor = session.get().actor();
        if (!rule.allows(actor.role(), method)) {
            forbidden(res, session.get());
            return false;
        }
        long entry = audit.begin(actor, method, req.path().rawPath());
        res.beforeSend(() -> {
            int status = res.status().code();
            audit.end(entry, status, status < 400);
        });
        req.context().register(ADMITTED, new Admitted(session.get(), form));
        return true;
    }

    private void forbidden(ServerResponse res, Session session) {
        view.render(
                res,
                403,
                "message",
                Optional.of(session),
                Map.of(
                        "title",
                        "Not for your role",
                        "message",
                        "Your role (" + session.actor().role().text() + ") may not do this, so nothing was"
                                + " changed. An owner can change your role."));
    }

    /** A page, given the session the gate found. */
    Handler page(Page page) {
        return (req, res) -> page.handle(req, res, admitted(req).session());
    }

    /** A change, given the session and the form the gate checked. */
    Handler change(Change change) {
        return (req, res) -> {
            Admitted admitted = admitted(req);
            change.handle(req, res, admitted.session(), admitted.form());
        };
    }

    private static Admitted admitted(ServerRequest req) {
        return req.context()
                .get(ADMITTED, Admitted.class)
                .orElseThrow(() -> new IllegalStateException("A console handler ran without the console's gate: "
                        + req.path().path()));
    }

    /** The live session named by the request's cookie, if any, of an operator who is not disabled. */
    Optional<Session> session(ServerRequest req) {
        return sessionId(req)
                .flatMap(sessions::find)
                .flatMap(found -> operators
                        .active(found.operatorId())
                        .map(operator -> new Session(
                                found.idHash(),
                                found.csrfToken(),
                                new Actor(
                                        operator.id(),
                                        operator.name(),
                                        operator.role(),
                                        Actor.VIA_SESSION,
                                        found.idHash().substring(0, 12)))));
    }

    /** The session id in the request's console cookie, if it sent one of a sane size. */
    static Optional<String> sessionId(ServerRequest req) {
        return cookie(req, COOKIE);
    }

    /** The value of the named cookie, if the request sent one of a sane size. */
    static Optional<String> cookie(ServerRequest req, String name) {
        for (String header : req.headers().values(HeaderNames.COOKIE)) {
            for (String cookie : header.split(";", -1)) {
                String trimmed = cookie.strip();
                if (trimmed.startsWith(name + "=")) {
                    String value = trimmed.substring(name.length() + 1);
                    return value.isEmpty() || value.length() > 100 ? Optional.empty() : Optional.of(value);
                }
            }
        }
        return Optional.empty();
    }

    /** The sign-in form's CSRF cookie: sent back only to the sign-in path, gone with the browser session. */
    void setFormCookie(ServerRequest req, ServerResponse res, String name, String value) {
        res.header(
                HeaderNames.SET_COOKIE,
                name + "=" + value + "; Path=" + SIGN_IN + "; HttpOnly; SameSite=Strict"
                        + (https.isHttps(req) ? "; Secure" : ""));
    }

    /**
     * Sets the session cookie: script cannot read it, other sites cannot send it, and a request that
     * came over HTTPS (here or at a trusted proxy) marks it Secure, so the browser never sends it over
     * plain HTTP.
     */
    void setCookie(ServerRequest req, ServerResponse res, String sessionId) {
        res.header(HeaderNames.SET_COOKIE, cookie(req, sessionId, ""));
    }

    void clearCookie(ServerRequest req, ServerResponse res) {
        res.header(HeaderNames.SET_COOKIE, cookie(req, "", "; Max-Age=0"));
    }

    private String cookie(ServerRequest req, String value, String extra) {
        return COOKIE + "=" + value + "; Path=/console; HttpOnly; SameSite=Strict"
                + (https.isHttps(req) ? "; Secure" : "") + extra;
    }

    /** 303 See Other: after a change the browser GETs the page, so a reload does not post again. */
    static void redirect(ServerResponse res, String location) {
        ConsoleView.headers(res);
        res.status(Status.SEE_OTHER_303);
        res.header(HeaderNames.LOCATION, location);
        res.send();
    }
}
