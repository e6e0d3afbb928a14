package dev.pulseledger.status.page;

import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The one-line verdict at the top of the page, led by the gravest status listed, as Statuspage's
 * "All Systems Operational" / "Partial System Outage" banner is.
 */
record PageSummary(String headline, String detail, String tone) {

    static PageSummary of(List<Service> services) {
        Optional<ServiceStatus> worst =
                services.stream().map(Service::status).max(Comparator.comparingInt(ServiceStatus::severity));
        if (worst.isEmpty()) {
            return new PageSummary("No services listed yet", "The provider has not listed any services.", "unknown");
        }
        long affected = services.stream()
                .filter(s -> s.status() != ServiceStatus.OPERATIONAL)
                .count();
        String detail = affected == 0
                ? "Every service is running normally."
                : affected + " of " + services.size() + " services " + (affected == 1 ? "is" : "are")
                        + " not fully operational.";
        String headline = switch (worst.get()) {
            case OPERATIONAL -> "All systems operational";
            case UNKNOWN -> "Some statuses are unknown";
            case UNDER_MAINTENANCE -> "Maintenance in progress";
            case DEGRADED_PERFORMANCE -> "Degraded performance";
            case PARTIAL_OUTAGE -> "Partial outage";
            case MAJOR_OUTAGE -> "Major outage";
        };
        return new PageSummary(headline, detail, StatusWords.of(worst.get()).tone());
    }
}
