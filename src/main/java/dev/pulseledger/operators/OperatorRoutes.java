package dev.pulseledger.operators;

import dev.pulseledger.http.DataList;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.Role;
import dev.pulseledger.keys.Secrets;
import dev.pulseledger.store.Ids;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Operator API for operators (CONTRACT §17): create, list, read, change or disable, and their admin
 * keys (shown once, revocable). Who may call which route is the route table's business, not this class's.
 */
public final class OperatorRoutes {
    static final String PATH = "/admin/operators";
    static final int MAX_NAME_LENGTH = 200;
    static final int MAX_EMAIL_LENGTH = 254;
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");
    private static final Set<String> CREATE_FIELDS = Set.of("name", "email", "role", "password");
    private static final Set<String> CHANGE_FIELDS = Set.of("name", "email", "role", "disabled", "password");
    private static final Set<String> KEY_FIELDS = Set.of("name");

    private final OperatorStore operators;
    private final Credentials credentials;
    private final Authenticator authenticator;
    private final Clock clock;

    public OperatorRoutes(OperatorStore operators, Credentials credentials, Authenticator authenticator, Clock clock) {
        this.operators = operators;
        this.credentials = credentials;
        this.authenticator = authenticator;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.post(PATH, this::create)
                .get(PATH, this::list)
                .get(PATH + "/{operatorId}", this::get)
                .patch(PATH + "/{operatorId}", this::change)
                .post(PATH + "/{operatorId}/keys", this::createKey)
                .get(PATH + "/{operatorId}/keys", this::listKeys)
                .delete(PATH + "/{operatorId}/keys/{keyId}", this::revokeKey)
                .post(PATH + "/{operatorId}/totp", this::enrolTotp)
                .delete(PATH + "/{operatorId}/totp", this::removeTotp);
    }

    private void create(ServerRequest req, ServerResponse res) {
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), CREATE_FIELDS);
        String name = body.requiredNonBlank("name", MAX_NAME_LENGTH).strip();
        String email = email(body.requiredString("email", MAX_EMAIL_LENGTH));
        Role role = role(body.requiredString("role", 10));
        Optional<String> password = password(body);
        String id = Ids.operator();
        Operator created = outcome(operators.create(id, name, email, role, clock.instant()));
        if (password.isPresent()) {
            credentials.setPassword(id, password.get());
            created = operators.find(id).orElse(created);
        }
        authenticator.catchUp();
        res.header(Responses.LOCATION, PATH + "/" + id);
        Responses.json(res, 201, OperatorJson.operator(created));
    }

    private void list(ServerRequest req, ServerResponse res) {
        Responses.ok(
                res,
                new DataList<>(
                        operators.list().stream().map(OperatorJson::operator).toList()));
    }

    private void get(ServerRequest req, ServerResponse res) {
        Responses.ok(res, OperatorJson.operator(existing(req)));
    }

    /** Name, email, role, disabled, password; demoting or disabling the last owner is 409 {@code last_owner}. */
    private void change(ServerRequest req, ServerResponse res) {
        String id = Requests.pathParam(req, "operatorId");
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), CHANGE_FIELDS);
        OperatorChange change = new OperatorChange(
                body.optionalString("name", MAX_NAME_LENGTH).map(String::strip).map(OperatorRoutes::nonBlankName),
                body.optionalString("email", MAX_EMAIL_LENGTH).map(OperatorRoutes::email),
                body.optionalString("role", 10).map(OperatorRoutes::role),
                body.optionalBoolean("disabled"));
        Optional<String> password = password(body);
        Operator changed = outcome(operators.change(id, change, clock.instant()));
        if (password.isPresent()) {
            credentials.setPassword(id, password.get());
            changed = operators.find(id).orElse(changed);
        }
        authenticator.catchUp();
        Responses.ok(res, OperatorJson.operator(changed));
    }

    /** A new admin key for the operator, shown in this answer only. */
    private void createKey(ServerRequest req, ServerResponse res) {
        Operator operator = existing(req);
        JsonBody body = Requests.optionalJsonBody(req)
                .map(raw -> JsonBody.parse(raw, KEY_FIELDS))
                .orElse(JsonBody.EMPTY);
        String secret = Secrets.newAdminKey();
        AdminKey key = new AdminKey(
                Ids.adminKey(),
                operator.id(),
                body.optionalString("name", MAX_NAME_LENGTH).orElse(""),
                Optional.of(secret.substring(0, "pl_admin_".length() + 4)),
                clock.instant(),
                Optional.empty());
        if (!operators.addKey(key, Secrets.sha256Hex(secret))) {
            throw operator.disabled()
                    ? new ProblemException(ProblemCode.OPERATOR_DISABLED, "A disabled operator gets no keys.")
                    : new ProblemException(
                            ProblemCode.TOO_MANY_KEYS,
                            "An operator holds at most " + OperatorStore.MAX_KEYS_PER_OPERATOR + " live admin keys.");
        }
        authenticator.catchUp();
        res.header(Responses.LOCATION, PATH + "/" + operator.id() + "/keys");
        Responses.json(res, 201, new OperatorJson.NewKeyBody(OperatorJson.key(key), secret));
    }

    private void listKeys(ServerRequest req, ServerResponse res) {
        Operator operator = existing(req);
        Responses.ok(
                res,
                new DataList<>(operators.keys(operator.id()).stream()
                        .map(OperatorJson::key)
                        .toList()));
    }

    private void revokeKey(ServerRequest req, ServerResponse res) {
        Operator operator = existing(req);
        Instant now = clock.instant();
        if (!operators.revokeKey(operator.id(), Requests.pathParam(req, "keyId"), now)) {
            throw new ProblemException(ProblemCode.KEY_NOT_FOUND, "This operator has no admin key with this id.");
        }
        authenticator.catchUp();
        Responses.noContent(res);
    }

    /** A new TOTP secret and recovery codes for the operator, shown in this answer only. */
    private void enrolTotp(ServerRequest req, ServerResponse res) {
        Operator operator = existing(req);
        Credentials.Enrolment enrolment = credentials
                .enrolTotp(operator.id(), operator.email().orElse(operator.name()))
                .orElseThrow(OperatorRoutes::notFound);
        Responses.json(res, 201, enrolment);
    }

    private void removeTotp(ServerRequest req, ServerResponse res) {
        if (!credentials.removeTotp(Requests.pathParam(req, "operatorId"))) {
            throw notFound();
        }
        Responses.noContent(res);
    }

    private Operator existing(ServerRequest req) {
        return operators.find(Requests.pathParam(req, "operatorId")).orElseThrow(OperatorRoutes::notFound);
    }

    private static Operator outcome(ChangeOutcome outcome) {
        return switch (outcome) {
            case ChangeOutcome.Changed changed -> changed.operator();
            case ChangeOutcome.NotFound notFound -> throw notFound();
            case ChangeOutcome.EmailTaken taken ->
                throw new ProblemException(ProblemCode.EMAIL_TAKEN, "Another operator has this email.");
            case ChangeOutcome.LastOwner last ->
                throw new ProblemException(
                        ProblemCode.LAST_OWNER,
                        "This is the last owner who is not disabled; make another owner first.");
        };
    }

    private static Optional<String> password(JsonBody body) {
        Optional<String> password = body.optionalString("password", Passwords.MAX_LENGTH * 2);
        password.flatMap(Passwords::problem).ifPresent(why -> {
            throw ProblemException.invalidField("password", why);
        });
        return password;
    }

    private static String nonBlankName(String name) {
        if (name.isEmpty()) {
            throw ProblemException.invalidField("name", "must not be blank");
        }
        return name;
    }

    static String email(String text) {
        String email = text.strip().toLowerCase(Locale.ROOT);
        if (!EMAIL.matcher(email).matches()) {
            throw ProblemException.invalidField("email", "must be an email address such as ada@example.com");
        }
        return email;
    }

    private static Role role(String text) {
        return Role.parse(text)
                .orElseThrow(() -> ProblemException.invalidField("role", "must be owner, billing, status or viewer"));
    }

    private static ProblemException notFound() {
        return new ProblemException(ProblemCode.OPERATOR_NOT_FOUND, "No operator has this id.");
    }
}
