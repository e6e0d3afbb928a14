package dev.pulseledger.status.services;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.pulseledger.http.Times;
import org.jspecify.annotations.Nullable;

/** JSON shapes of a service: the public one of the feed, and the operator's with {@code public}. */
public final class ServiceJson {
    private ServiceJson() {}

    public record FeedBody(
            String id,
            String name,
            String description,
            String status,
            boolean spotlighted,
            int position,
            String updatedAt,
            @Nullable String groupId) {}

    /** The feed's fields, then whether callers see the service. */
    public record OperatorBody(
            @JsonUnwrapped FeedBody service,
            @JsonProperty("public") boolean isPublic) {}

    public static FeedBody forFeed(Service service) {
        return new FeedBody(
                service.id(),
                service.name(),
                service.description(),
                service.status().wire(),
                service.spotlighted(),
                service.position(),
                Times.format(service.updatedAt()),
                service.groupId().orElse(null));
    }

    public static OperatorBody forOperator(Service service) {
        return new OperatorBody(forFeed(service), service.isPublic());
    }
}
