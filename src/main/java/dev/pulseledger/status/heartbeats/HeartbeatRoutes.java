package dev.pulseledger.status.heartbeats;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.http.Times;
import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.ServiceStore;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Heartbeats (CONTRACT §16): the operator sets one on a service and gets its secret URL once (only
 * its hash is kept); the service's job calls {@code POST /heartbeats/{secret}} with no key, which
 * costs one row update and is limited per secret.
 */
public final class HeartbeatRoutes {
    public static final String BEAT_PATH = "/heartbeats/{secret}";
    private static final Set<String> FIELDS = Set.of("graceSeconds", "statusWhenMissed");
    private static final int SECRET_BYTES = 24;
    private static final Pattern SECRET = Pattern.compile("hb_[A-Za-z0-9_-]{32}");
    private static final long MIN_GRACE_SECONDS = 10;
    private static final long MAX_GRACE_SECONDS = 7 * 24 * 3600;

    /** One beat a second per secret is plenty for any job; more is refused without touching the database. */
    static final Duration MIN_BEAT_INTERVAL = Duration.ofSeconds(1);

    private static final int MAX_SECRETS_REMEMBERED = 100_000;

    /** The heartbeat as operators see it; the URL only in the answer that created it. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record HeartbeatBody(
            String serviceId,
            long graceSeconds,
            String statusWhenMissed,
            String lastBeatAt,
            @Nullable String missedAt,
            @Nullable String incidentId,
            @Nullable String url) {}

    private final HeartbeatStore heartbeats;
    private final ServiceStore services;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Cache<String, Long> lastBeatNanos = Caffeine.newBuilder()
            .maximumSize(MAX_SECRETS_REMEMBERED)
            .expireAfterWrite(MIN_BEAT_INTERVAL)
            .build();

    public HeartbeatRoutes(HeartbeatStore heartbeats, ServiceStore services, Clock clock) {
        this.heartbeats = heartbeats;
        this.services = services;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.post("/admin/services/{serviceId}/heartbeat", this::create)
                .get("/admin/services/{serviceId}/heartbeat", this::get)
                .delete("/admin/services/{serviceId}/heartbeat", this::delete)
                .post(BEAT_PATH, this::beat);
    }

    private void create(ServerRequest req, ServerResponse res) {
        String serviceId = Requests.pathParam(req, "serviceId");
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), FIELDS);
        Duration grace = Duration.ofSeconds(body.requiredLong("graceSeconds", MIN_GRACE_SECONDS, MAX_GRACE_SECONDS));
        ServiceStatus whenMissed = body.optionalString("statusWhenMissed", 40)
                .map(text -> ServiceStatus.fromWire(text)
                        .filter(status -> status != ServiceStatus.OPERATIONAL)
                        .orElseThrow(() -> ProblemException.invalidField(
                                "statusWhenMissed",
                                "must be one of degraded_performance, partial_outage, major_outage,"
                                        + " under_maintenance, unknown")))
                .orElse(ServiceStatus.MAJOR_OUTAGE);
        if (services.find(serviceId).isEmpty()) {
            throw notFound();
        }
        String secret = "hb_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes());
        heartbeats.put(serviceId, hash(secret), grace, whenMissed, clock.instant());
        Heartbeat created = heartbeats.find(serviceId).orElseThrow(HeartbeatRoutes::notFound);
        Responses.json(res, 201, body(created, "/heartbeats/" + secret));
    }

    private void get(ServerRequest req, ServerResponse res) {
        Heartbeat heartbeat =
                heartbeats.find(Requests.pathParam(req, "serviceId")).orElseThrow(HeartbeatRoutes::notFound);
        Responses.ok(res, body(heartbeat, null));
    }

    private void delete(ServerRequest req, ServerResponse res) {
        if (!heartbeats.delete(Requests.pathParam(req, "serviceId"))) {
            throw notFound();
        }
        Responses.noContent(res);
    }

    private void beat(ServerRequest req, ServerResponse res) {
        String secret = Requests.pathParam(req, "secret");
        if (!SECRET.matcher(secret).matches()) {
            throw unknownSecret();
        }
        String hash = hash(secret);
        long now = System.nanoTime();
        Long last = lastBeatNanos.asMap().putIfAbsent(hash, now);
        if (last != null && now - last < MIN_BEAT_INTERVAL.toNanos()) {
            throw new ProblemException(ProblemCode.TOO_MANY_BEATS, "At most one beat a second per heartbeat.")
                    .withHeader("Retry-After", "1");
        }
        lastBeatNanos.put(hash, now);
        if (!heartbeats.beat(hash, clock.instant())) {
            throw unknownSecret();
        }
        Responses.noContent(res);
    }

    private byte[] bytes() {
        byte[] bytes = new byte[SECRET_BYTES];
        random.nextBytes(bytes);
        return bytes;
    }

    static String hash(String secret) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static HeartbeatBody body(Heartbeat heartbeat, @Nullable String url) {
        return new HeartbeatBody(
                heartbeat.serviceId(),
                heartbeat.grace().toSeconds(),
                heartbeat.statusWhenMissed().wire(),
                Times.format(heartbeat.lastBeatAt()),
                heartbeat.missedAt().map(Times::format).orElse(null),
                heartbeat.incidentId().orElse(null),
                url);
    }

    private static ProblemException notFound() {
        return new ProblemException(
                ProblemCode.HEARTBEAT_NOT_FOUND, "This service has no heartbeat, or no such service.");
    }

    private static ProblemException unknownSecret() {
        return new ProblemException(ProblemCode.HEARTBEAT_NOT_FOUND, "No heartbeat has this URL.");
    }
}
