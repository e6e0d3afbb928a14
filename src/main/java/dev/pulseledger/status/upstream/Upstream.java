package dev.pulseledger.status.upstream;

import java.time.Instant;
import java.util.Optional;

/**
 * A service's upstream: the status document it follows and the component in it, with what the last
 * reads left: the document's tag, and since when it could not be read (and why), if it cannot.
 */
public record Upstream(
        String serviceId,
        String url,
        String component,
        Optional<String> etag,
        Optional<Instant> checkedAt,
        Optional<Instant> unreachableSince,
        Optional<String> lastError) {}
