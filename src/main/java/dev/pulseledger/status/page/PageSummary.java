package dev.pulseledger.status.page;

import dev.pulseledger.i18n.Messages;
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

    static PageSummary of(List<Service> services, Messages words) {
        Optional<ServiceStatus> worst =
                services.stream().map(Service::status).max(Comparator.comparingInt(ServiceStatus::severity));
        if (worst.isEmpty()) {
            return new PageSummary(words.text("summary.none.headline"), words.text("summary.none.detail"), "unknown");
        }
        long affected = services.stream()
                .filter(s -> s.status() != ServiceStatus.OPERATIONAL)
                .count();
        String detail = affected == 0
                ? words.text("summary.all.detail")
                : words.text(
                        affected == 1 ? "summary.some.detail.one" : "summary.some.detail.other",
                        affected,
                        services.size());
        String headline = words.text("headline." + worst.get().wire());
        return new PageSummary(
                headline, detail, StatusWords.of(worst.get(), words).tone());
    }
}
