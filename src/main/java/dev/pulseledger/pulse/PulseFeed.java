package dev.pulseledger.pulse;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.pulseledger.http.EntityTags;
import dev.pulseledger.http.Json;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The public service listing, rendered once and shared by every request until it is at most {@link
 * #MAX_STALENESS} old, so a status change made on any node shows everywhere within the contract's
 * bound while reads cost no query.
 */
public final class PulseFeed {
    public static final Duration MAX_STALENESS = Duration.ofSeconds(1);

    /** The ordered public services, their JSON body and its entity tag. */
    public record Snapshot(List<Service> services, byte[] json, String etag) {}

    private final ServiceStore store;
    private final LoadingCache<String, Snapshot> snapshot;

    public PulseFeed(ServiceStore store) {
        this.store = store;
        this.snapshot = Caffeine.newBuilder()
                .expireAfterWrite(MAX_STALENESS)
                .maximumSize(1)
                .build(k -> load());
    }

    public Snapshot current() {
        return snapshot.get("feed");
    }

    /** Drops the cached listing after a change on this node, so it shows at once here. */
    public void invalidate() {
        snapshot.invalidateAll();
    }

    private Snapshot load() {
        List<Service> services = store.all().stream()
                .filter(Service::isPublic)
                .sorted(Service.PULSE_ORDER)
                .toList();
        byte[] json = Json.bytes(
                Map.of("services", services.stream().map(ServiceJson::forFeed).toList()));
        return new Snapshot(services, json, EntityTags.of(json));
    }
}
