package dev.pulseledger.http;

import java.util.Locale;

/**
 * Every problem {@code code} the API answers, with its HTTP status: the one list. A {@link
 * ProblemException} takes a constant of this enum, so a new code is added here or does not compile, and
 * the OpenAPI document's {@code Problem.code} lists exactly these (checked by a test).
 */
public enum ProblemCode {
    // 400 Bad Request
    BAD_REQUEST(400),
    INVALID_AMOUNT(400),
    INVALID_AT(400),
    INVALID_BODY(400),
    INVALID_CURSOR(400),
    INVALID_DAYS(400),
    INVALID_FROM(400),
    INVALID_GRANULARITY(400),
    INVALID_GROUP_ID(400),
    INVALID_IDEMPOTENCY_KEY(400),
    INVALID_LABEL(400),
    INVALID_JSON(400),
    INVALID_LAST_EVENT_ID(400),
    INVALID_LIMIT(400),
    INVALID_OPERATOR_ID(400),
    INVALID_POOL(400),
    INVALID_REQUEST(400),
    INVALID_SERVICE_ID(400),
    INVALID_STATUS(400),
    INVALID_STYLE(400),
    INVALID_TO(400),
    TOO_MANY_BUCKETS(400),
    // 401 Unauthorized
    INVALID_API_KEY(401),
    MISSING_API_KEY(401),
    // 402 Payment Required
    INSUFFICIENT_BALANCE(402),
    KEY_BUDGET_EXCEEDED(402),
    // 403 Forbidden
    ACCOUNT_SUSPENDED(403),
    FORBIDDEN(403),
    FORBIDDEN_FOR_ROLE(403),
    // 404 Not Found
    ACCOUNT_NOT_FOUND(404),
    GRANT_NOT_FOUND(404),
    HEARTBEAT_NOT_FOUND(404),
    INCIDENT_NOT_FOUND(404),
    KEY_NOT_FOUND(404),
    MAINTENANCE_NOT_FOUND(404),
    NOT_FOUND(404),
    OPERATOR_NOT_FOUND(404),
    PLAN_CHANGE_NOT_FOUND(404),
    PLAN_NOT_FOUND(404),
    POOL_NOT_FOUND(404),
    RESERVATION_NOT_FOUND(404),
    SERVICE_GROUP_NOT_FOUND(404, 422),
    SERVICE_NOT_FOUND(404),
    SPENDING_NOT_FOUND(404),
    STATUS_SUBSCRIBER_NOT_FOUND(404),
    WEBHOOK_NOT_FOUND(404),
    // 405 Method Not Allowed
    METHOD_NOT_ALLOWED(405),
    // 409 Conflict
    EMAIL_TAKEN(409),
    GRANT_ALREADY_REVOKED(409),
    IDEMPOTENCY_KEY_IN_USE(409),
    INCIDENT_NOT_DRAFT(409),
    LAST_OWNER(409),
    OPERATOR_DISABLED(409),
    PLAN_EXISTS(409),
    PLAN_UNCHANGED(409),
    RESERVATION_ALREADY_SETTLED(409),
    RESERVATION_NOT_HELD(409),
    SERVICE_GROUP_EXISTS(409),
    TOO_MANY_KEYS(409),
    // 413 Content Too Large
    PAYLOAD_TOO_LARGE(413),
    // 414 URI Too Long
    URI_TOO_LONG(414),
    // 415 Unsupported Media Type
    UNSUPPORTED_MEDIA_TYPE(415),
    // 422 Unprocessable Content
    BALANCE_LIMIT_REACHED(422),
    IDEMPOTENCY_KEY_REUSED(422),
    INCIDENT_UPDATE_LIMIT_REACHED(422),
    INVALID_WINDOW(422),
    KEY_LIMIT_REACHED(422),
    MAINTENANCE_COMPLETED(422),
    MAINTENANCE_STARTED(422),
    POOL_LIMIT_REACHED(422),
    REVERT_EXCEEDS_SPENDING(422),
    SERVICE_GROUP_LIMIT_REACHED(422),
    SERVICE_LIMIT_REACHED(422),
    SETTLE_EXCEEDS_HELD(422),
    UNKNOWN_PLAN(422),
    UNKNOWN_SERVICE(422),
    WEBHOOK_LIMIT_REACHED(422),
    // 429 Too Many Requests
    RATE_LIMITED(429),
    TOO_MANY_BEATS(429),
    TOO_MANY_FAILED_AUTHENTICATIONS(429),
    TOO_MANY_STREAMS(429),
    // 431 Request Header Fields Too Large
    REQUEST_HEADER_FIELDS_TOO_LARGE(431),
    // 500 Internal Server Error
    INTERNAL_ERROR(500),
    // 503 Service Unavailable
    ACCOUNT_BUSY(503),
    DATABASE_UNAVAILABLE(503),
    OUTCOME_UNKNOWN(503),
    OVERLOADED(503),
    SHUTTING_DOWN(503),
    STORAGE_FULL(503),
    TOO_MANY_STREAMS_ON_NODE(503),
    // 505 HTTP Version Not Supported
    HTTP_VERSION_NOT_SUPPORTED(505);

    private final int status;
    /** A second status a route may answer this code with; 0 for none. */
    private final int alsoAnswered;

    ProblemCode(int status) {
        this(status, 0);
    }

    /** A code answered with {@code status}, or with {@code alsoAnswered} where the route says so. */
    ProblemCode(int status, int alsoAnswered) {
        this.status = status;
        this.alsoAnswered = alsoAnswered;
    }

    /** The stable snake_case code of the problem document. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The HTTP status this code is answered with, unless a route names another it lists. */
    public int status() {
        return status;
    }

    /**
     * Whether this code may be answered with {@code answered}: its own status, or the one it also lists
     * (a missing group named in a body is 422, at its own path 404).
     */
    public boolean answers(int answered) {
        return answered == status || (alsoAnswered != 0 && answered == alsoAnswered);
    }

    /** The problem's {@code title}: the reason phrase of its status. */
    public String title() {
        return title(status);
    }

    static String title(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 402 -> "Payment Required";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 409 -> "Conflict";
            case 413 -> "Content Too Large";
            case 414 -> "URI Too Long";
            case 415 -> "Unsupported Media Type";
            case 422 -> "Unprocessable Content";
            case 429 -> "Too Many Requests";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            case 505 -> "HTTP Version Not Supported";
            default -> throw new IllegalStateException("No reason phrase for " + status);
        };
    }
}
