package dev.pulseledger.status.page;

import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.services.ServiceStatus;

/** How the page names and colours each status. */
record StatusWords(String label, String tone) {

    static StatusWords of(ServiceStatus status, Messages words) {
        // The tone is a CSS class suffix; every tone pairs its colour with these words, never alone.
        String label = words.text("service." + status.wire());
        return switch (status) {
            case OPERATIONAL -> new StatusWords(label, "operational");
            case UNKNOWN -> new StatusWords(label, "unknown");
            case UNDER_MAINTENANCE -> new StatusWords(label, "maintenance");
            case DEGRADED_PERFORMANCE -> new StatusWords(label, "degraded");
            case PARTIAL_OUTAGE -> new StatusWords(label, "partial-outage");
            case MAJOR_OUTAGE -> new StatusWords(label, "major-outage");
        };
    }
}
