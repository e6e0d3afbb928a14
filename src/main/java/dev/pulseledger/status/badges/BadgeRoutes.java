package dev.pulseledger.status.badges;

import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Representation;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.groups.GroupRollup;
import dev.pulseledger.status.pulse.PulseFeed;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Status badges for READMEs and dashboards (CONTRACT §16): the whole page, one public service, or
 * one group, as shields-style SVG. Public like the page and drawn from the same cached feed; any
 * site may show them, so they may be loaded cross-origin but never run anything.
 */
public final class BadgeRoutes {
    public static final String PAGE_BADGE = "/status/badge.svg";
    public static final String SERVICE_BADGE = "/status/badge/{badge}";
    public static final String GROUP_BADGE = "/status/badge/groups/{badge}";

    /** Short, as the contract asks: a badge follows a change within half a minute. */
    static final String CACHE_CONTROL = "max-age=30";

    /** An SVG shown by an img element runs nothing; this says so to a browser that opens it directly. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

    private static final String SVG = "image/svg+xml; charset=utf-8";
    private static final String SUFFIX = ".svg";

    private final PulseFeed feed;
    private final Messages words;

    public BadgeRoutes(PulseFeed feed, Messages words) {
        this.feed = feed;
        this.words = words;
    }

    public void register(RouteTable routes) {
        routes.get(PAGE_BADGE, this::page).get(SERVICE_BADGE, this::service).get(GROUP_BADGE, this::group);
    }

    private void page(ServerRequest req, ServerResponse res) {
        List<Service> services = feed.current().services();
        ServiceStatus worst = services.isEmpty()
                ? ServiceStatus.UNKNOWN
                : services.stream()
                        .map(Service::status)
                        .max(Comparator.comparingInt(ServiceStatus::severity))
                        .orElseThrow();
        send(req, res, words.text("badge.label"), worst);
    }

    private void service(ServerRequest req, ServerResponse res) {
        String id = id(req);
        Service service = feed.current().services().stream()
                .filter(s -> s.id().equals(id))
                .findFirst()
                .orElseThrow(
                        () -> new ProblemException(ProblemCode.SERVICE_NOT_FOUND, "No public service has this id."));
        send(req, res, service.name(), service.status());
    }

    private void group(ServerRequest req, ServerResponse res) {
        String id = id(req);
        GroupRollup group = feed.current().groups().stream()
                .filter(g -> g.group().id().equals(id))
                .findFirst()
                .orElseThrow(() ->
                        new ProblemException(ProblemCode.SERVICE_GROUP_NOT_FOUND, "No service group has this id."));
        send(req, res, group.group().name(), group.status());
    }

    private void send(ServerRequest req, ServerResponse res, String defaultLabel, ServiceStatus status) {
        String label = label(req).orElse(defaultLabel);
        BadgeSvg.Style style = Requests.query(req, "style")
                .map(text -> BadgeSvg.Style.fromWire(text)
                        .orElseThrow(() ->
                                new ProblemException(ProblemCode.INVALID_STYLE, "style must be flat or flat-square.")))
                .orElse(BadgeSvg.Style.FLAT);
        String svg = BadgeSvg.render(label, words.text("service." + status.wire()), status, style);
        res.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        res.header("X-Content-Type-Options", "nosniff");
        res.header("Cross-Origin-Resource-Policy", "cross-origin");
        res.header("Access-Control-Allow-Origin", "*");
        Representation.of(SVG, svg.getBytes(StandardCharsets.UTF_8), CACHE_CONTROL)
                .send(req, res);
    }

    /** The label asked for: at most {@value BadgeSvg#MAX_LABEL_LENGTH} characters, no control characters. */
    private static Optional<String> label(ServerRequest req) {
        Optional<String> label = Requests.query(req, "label");
        label.ifPresent(text -> {
            if (text.codePointCount(0, text.length()) > BadgeSvg.MAX_LABEL_LENGTH
                    || text.chars().anyMatch(Character::isISOControl)) {
                throw new ProblemException(
                        ProblemCode.INVALID_LABEL,
                        "label must be at most " + BadgeSvg.MAX_LABEL_LENGTH
                                + " characters without control characters.");
            }
        });
        return label;
    }

    /** The id before {@code .svg}; any other ending is no badge at all. */
    private static String id(ServerRequest req) {
        String name = Requests.pathParam(req, "badge");
        if (!name.endsWith(SUFFIX)) {
            throw new ProblemException(ProblemCode.NOT_FOUND, "No resource lives at this path.");
        }
        return name.substring(0, name.length() - SUFFIX.length());
    }
}
