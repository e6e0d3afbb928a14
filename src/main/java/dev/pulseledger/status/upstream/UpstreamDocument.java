package dev.pulseledger.status.upstream;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.http.Json;
import dev.pulseledger.status.services.ServiceStatus;
import java.io.IOException;
import java.util.Optional;

/**
 * Reads one component's status out of a Statuspage-compatible document ({@code summary.json} or
 * {@code components.json}, Statuspage's own or ours): the component is found by name, or by id.
 */
final class UpstreamDocument {
    private UpstreamDocument() {}

    /** What a document said about the component. */
    sealed interface Reading {
        record Status(ServiceStatus status) implements Reading {}

        record Unreadable(String reason) implements Reading {}
    }

    static Reading status(byte[] body, String component) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(body);
        } catch (IOException e) {
            return new Reading.Unreadable("not JSON");
        }
        JsonNode components = root == null ? null : root.get("components");
        if (components == null || !components.isArray()) {
            return new Reading.Unreadable("no components in the document");
        }
        for (JsonNode candidate : components) {
            if (component.equals(candidate.path("name").asText(null))
                    || component.equals(candidate.path("id").asText(null))) {
                return map(candidate.path("status").asText(""))
                        .<Reading>map(Reading.Status::new)
                        .orElseGet(() -> new Reading.Unreadable("unknown component status"));
            }
        }
        return new Reading.Unreadable("no component named " + component);
    }

    /** Statuspage's component statuses are ours, by the same names. */
    static Optional<ServiceStatus> map(String statuspage) {
        return switch (statuspage) {
            case "operational" -> Optional.of(ServiceStatus.OPERATIONAL);
            case "degraded_performance" -> Optional.of(ServiceStatus.DEGRADED_PERFORMANCE);
            case "partial_outage" -> Optional.of(ServiceStatus.PARTIAL_OUTAGE);
            case "major_outage" -> Optional.of(ServiceStatus.MAJOR_OUTAGE);
            case "under_maintenance" -> Optional.of(ServiceStatus.UNDER_MAINTENANCE);
            default -> Optional.empty();
        };
    }
}
