package dev.pulseledger.pulse;

import dev.pulseledger.http.Times;
import java.util.LinkedHashMap;
import java.util.Map;

/** JSON shapes of a service: the public one of the feed, and the operator's with {@code public}. */
public final class ServiceJson {
    private ServiceJson() {}

    public static Map<String, Object> forFeed(Service service) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", service.id());
        body.put("name", service.name());
        body.put("description", service.description());
        body.put("status", service.status().wire());
        body.put("spotlighted", service.spotlighted());
        body.put("position", service.position());
        body.put("updatedAt", Times.format(service.updatedAt()));
        return body;
    }

    public static Map<String, Object> forOperator(Service service) {
        Map<String, Object> body = forFeed(service);
        body.put("public", service.isPublic());
        return body;
    }
}
