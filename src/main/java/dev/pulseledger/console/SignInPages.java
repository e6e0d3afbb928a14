package dev.pulseledger.console;

import dev.pulseledger.http.ClientAddresses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.KeyCheck;
import dev.pulseledger.keys.Secrets;
import dev.pulseledger.operators.Credentials;
import dev.pulseledger.operators.SignInLimiter;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Signing in, with an operator's email and password (and TOTP code) or an admin key (never a caller
 * key), and signing out. The sign-in form carries its own CSRF token, matched against a cookie set
 * with the form (SameSite=Strict, so another site's page cannot post it), so no other site can sign a
 * browser in to an account of its choosing.
 */
final class SignInPages {
    static final String FORM_COOKIE = "pl_signin";
    private static final String KEY_FIELD = "adminKey";
    private static final String EMAIL_FIELD = "email";
    private static final String PASSWORD_FIELD = "password";
    private static final String CODE_FIELD = "code";
    private static final int MAX_FIELD_LENGTH = 400;
    private static final String WRONG = "The email, password or code is wrong.";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Authenticator authenticator;
    private final Credentials credentials;
    private final SignInLimiter limiter;
    private final ClientAddresses clients;
    private final ConsoleSessions sessions;
    private final ConsoleGuard guard;
    private final ConsoleView view;

    SignInPages(
            Authenticator authenticator,
            Credentials credentials,
            SignInLimiter limiter,
            ClientAddresses clients,
            ConsoleSessions sessions,
            ConsoleGuard guard,
            ConsoleView view) {
        this.authenticator = authenticator;
        this.credentials = credentials;
        this.limiter = limiter;
        this.clients = clients;
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
        show(req, res, 200, Form.empty(), req.query().contains("signedOut"));
    }

    /**
     * A new session id on every sign-in, so a planted cookie is never promoted. Keys and passwords are
     * read, checked and dropped: never stored in the session, shown again or logged.
     */
    private void signIn(ServerRequest req, ServerResponse res) {
        Form form = Form.read(req);
        Optional<String> expected = ConsoleGuard.cookie(req, FORM_COOKIE);
        if (expected.isEmpty() || !Secrets.sameHash(expected.get(), form.value(ConsoleGuard.CSRF_FIELD))) {
            form.error(KEY_FIELD, "This form did not come from the sign-in page. Reload it and try again.");
            show(req, res, 403, form, false);
            return;
        }
        String address = clients.of(req);
        String key = limited(form.value(KEY_FIELD)).strip();
        if (!key.isEmpty()) {
            signInWithKey(req, res, form, address, key);
            return;
        }
        Credentials.SignIn outcome = credentials.signIn(
                address,
                limited(form.value(EMAIL_FIELD)),
                limited(form.value(PASSWORD_FIELD)),
                limited(form.value(CODE_FIELD)));
        switch (outcome) {
            case Credentials.SignIn.SignedIn signedIn -> open(req, res, signedIn.operatorId());
            case Credentials.SignIn.Refused refused -> {
                form.error(EMAIL_FIELD, WRONG);
                show(req, res, 401, form, false);
            }
            case Credentials.SignIn.Held held -> tooMany(req, res, form, held.retryAfter());
        }
    }

    /** The admin-key sign-in: limited per client address like the password's, never per account. */
    private void signInWithKey(ServerRequest req, ServerResponse res, Form form, String address, String key) {
        Optional<Duration> wait = limiter.addressWait(address);
        if (wait.isPresent()) {
            tooMany(req, res, form, wait.get());
            return;
        }
        if (!(authenticator.check(Optional.of(key), false) instanceof KeyCheck.Admin admin)) {
            limiter.failedAddress(address);
            form.error(KEY_FIELD, "This is not an admin key.");
            show(req, res, 401, form, false);
            return;
        }
        open(req, res, admin.actor().operatorId());
    }

    private void open(ServerRequest req, ServerResponse res, String operatorId) {
        guard.setCookie(req, res, sessions.open(operatorId));
        ConsoleGuard.redirect(res, "/console");
    }

    private void tooMany(ServerRequest req, ServerResponse res, Form form, Duration wait) {
        long seconds = Math.max(1, wait.toSeconds() + (wait.toMillisPart() > 0 ? 1 : 0));
        res.header(HeaderNames.RETRY_AFTER, Long.toString(seconds));
        form.error(EMAIL_FIELD, "Too many attempts. Try again in " + seconds + " seconds.");
        show(req, res, 429, form, false);
    }

    private void signOut(ServerRequest req, ServerResponse res, ConsoleSessions.Session session, Form form) {
        ConsoleGuard.sessionId(req).ifPresent(sessions::close);
        guard.clearCookie(req, res);
        ConsoleGuard.redirect(res, ConsoleGuard.SIGN_IN + "?signedOut");
    }

    /** Every showing of the form gets a fresh token, in the form and in a cookie only this path receives. */
    private void show(ServerRequest req, ServerResponse res, int status, Form form, boolean signedOut) {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        guard.setFormCookie(req, res, FORM_COOKIE, token);
        Map<String, Object> model = new HashMap<>();
        model.put("errors", form.errors());
        model.put("signedOut", signedOut);
        model.put("formToken", token);
        model.put("email", limited(form.value(EMAIL_FIELD)));
        view.render(res, status, "sign-in", Optional.empty(), model);
    }

    private static String limited(String value) {
        return value.length() > MAX_FIELD_LENGTH ? "" : value;
    }
}
