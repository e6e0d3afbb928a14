package dev.pulseledger.http;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** An expected failure that ends a request with an RFC 9457 problem response. */
public final class ProblemException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final ProblemCode code;
    private final String title;
    // A problem ends its request on this node and is never serialised.
    private final transient Optional<Record> extension;
    private final transient Map<String, String> headers;

    public ProblemException(ProblemCode code, String detail) {
        this(code.status(), code, code.title(), detail, Optional.empty(), Map.of());
    }

    /** A problem answered with another status that its code lists (see {@link ProblemCode#answers}). */
    public ProblemException(ProblemCode code, int status, String detail) {
        this(checked(code, status), code, ProblemCode.title(status), detail, Optional.empty(), Map.of());
    }

    /** A problem whose body carries the fields of {@code extension} after the standard members. */
    public ProblemException(ProblemCode code, String detail, Record extension) {
        this(code.status(), code, code.title(), detail, Optional.of(extension), Map.of());
    }

    private ProblemException(
            int status,
            ProblemCode code,
            String title,
            String detail,
            Optional<Record> extension,
            Map<String, String> headers) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
        this.title = title;
        this.extension = extension;
        this.headers = Map.copyOf(headers);
    }

    /** The same problem with one more response header, such as Allow or Retry-After. */
    public ProblemException withHeader(String name, String value) {
        Map<String, String> more = new HashMap<>(headers);
        more.put(name, value);
        return new ProblemException(status, code, title, detail(), extension, more);
    }

    private static int checked(ProblemCode code, int status) {
        if (!code.answers(status)) {
            throw new IllegalArgumentException(code.code() + " is not answered with " + status);
        }
        return status;
    }

    public static ProblemException invalidField(String field, String why) {
        return new ProblemException(ProblemCode.INVALID_REQUEST, "Field '" + Excerpt.of(field) + "' " + why + ".");
    }

    /**
     * A request the server could not read as HTTP, answered {@code bad_request} with the 4xx status the
     * server's reader chose (the one code whose status is not fixed).
     */
    static ProblemException unreadable(int status, String title, String detail) {
        if (status < 400 || status > 499) {
            throw new IllegalArgumentException("Not a client error: " + status);
        }
        return new ProblemException(status, ProblemCode.BAD_REQUEST, title, detail, Optional.empty(), Map.of());
    }

    public int status() {
        return status;
    }

    public ProblemCode code() {
        return code;
    }

    public String title() {
        return title;
    }

    public String detail() {
        return String.valueOf(getMessage());
    }

    /** The problem's own fields beyond the standard members, if it has any. */
    public Optional<Record> extension() {
        return extension;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
