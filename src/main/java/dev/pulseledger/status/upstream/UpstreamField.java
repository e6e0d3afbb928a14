package dev.pulseledger.status.upstream;

import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemException;
import java.util.Set;

/** The {@code upstream} field of a service write, read and checked by the guard before anything is stored. */
public final class UpstreamField {
    private static final Set<String> FIELDS = Set.of("url", "component");
    private static final int MAX_COMPONENT_LENGTH = 200;

    private UpstreamField() {}

    /** What a write asks for the service's upstream. */
    public sealed interface Change {
        /** The field was left out: the upstream stays as it is. */
        record Keep() implements Change {}

        /** {@code "upstream": null}: the service stops following anything. */
        record Remove() implements Change {}

        record Follow(String url, String component) implements Change {}
    }

    public static Change read(JsonBody body, UpstreamGuard guard) {
        if (!body.has("upstream")) {
            return new Change.Keep();
        }
        return body.optionalObject("upstream", FIELDS)
                .<Change>map(upstream -> {
                    String url = upstream.requiredString("url", UpstreamGuard.MAX_URL_LENGTH);
                    guard.refuseUrl(url)
                            .or(() -> guard.refuseResolvedAtWrite(url))
                            .ifPresent(why -> {
                                throw ProblemException.invalidField("upstream.url", why);
                            });
                    return new Change.Follow(url, upstream.requiredNonBlank("component", MAX_COMPONENT_LENGTH));
                })
                .orElseGet(Change.Remove::new);
    }
}
