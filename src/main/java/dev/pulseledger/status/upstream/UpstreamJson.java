package dev.pulseledger.status.upstream;

import dev.pulseledger.http.Times;
import org.jspecify.annotations.Nullable;

/** The operator's view of a service's upstream, with since when it could not be read. */
public final class UpstreamJson {
    private UpstreamJson() {}

    public record Body(
            String url,
            String component,
            @Nullable String checkedAt,
            @Nullable String unreachableSince,
            @Nullable String lastError) {}

    public static Body of(Upstream upstream) {
        return new Body(
                upstream.url(),
                upstream.component(),
                upstream.checkedAt().map(Times::format).orElse(null),
                upstream.unreachableSince().map(Times::format).orElse(null),
                upstream.lastError().orElse(null));
    }
}
