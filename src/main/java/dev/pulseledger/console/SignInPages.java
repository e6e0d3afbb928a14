package dev.pulseledger.console;

import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.KeyCheck;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;

/** Signing in with an admin key (never a caller key) and signing out. */
final class SignInPages {
    private static final String KEY_FIELD = "adminKey";

    private final Authenticator authenticator;
    private final ConsoleSessions sessions;
    private final ConsoleGuard guard;
    private final ConsoleView view;

    SignInPages(Authenticator authenticator, ConsoleSessions sessions, ConsoleGuard guard, ConsoleView view) {
        this.authenticator = authenticator;
        this.sessions = sessions;
        this.guard = guard;
        this.view = view;
    }

    void register(RouteTable routes) {
        routes.get(ConsoleGuard.SIGN_IN, this::form)
                .post(ConsoleGuard.SIGN_IN, this::signIn)
                .post("/console/sign-out", guard.change(this::signOut));
    }

    private void form(ServerRequest req, ServerResponse res) {
        show(res, 200, Form.empty(), req.query().contains("signedOut"));
    }

    /**
     * A new session id on every sign-in, so a planted cookie is never promoted. The key is read,
     * hashed and dropped: it is neither stored in the session nor shown again.
     */
    private void signIn(ServerRequest req, ServerResponse res) {
        Form form = Form.read(req);
        String key = form.value(KEY_FIELD).strip();
        if (!(authenticator.check(Optional.of(key), false) instanceof KeyCheck.Admin)) {
            form.error(KEY_FIELD, key.isEmpty() ? "Enter your admin key." : "This is not an admin key.");
            show(res, 401, form, false);
            return;
        }
        guard.setCookie(req, res, sessions.open());
        ConsoleGuard.redirect(res, "/console");
    }

    private void signOut(ServerRequest req, ServerResponse res, ConsoleSessions.Session session, Form form) {
        ConsoleGuard.sessionId(req).ifPresent(sessions::close);
        guard.clearCookie(req, res);
        ConsoleGuard.redirect(res, ConsoleGuard.SIGN_IN + "?signedOut");
    }

    private void show(ServerResponse res, int status, Form form, boolean signedOut) {
        view.render(res, status, "sign-in", Optional.empty(), Map.of("errors", form.errors(), "signedOut", signedOut));
    }
}
