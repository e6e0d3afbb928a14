package dev.pulseledger.status.page;

import dev.pulseledger.status.services.ServiceStatus;

/** How the page names and colours each status. */
record StatusWords(String label, String tone) {

    static StatusWords of(ServiceStatus status) {
        // The tone is a CSS class suffix; every tone pairs its colour with these words, never alone.
        return switch (status) {
            case OPERATIONAL -> new StatusWords("Operational", "operational");
            case UNKNOWN -> new StatusWords("Status unknown", "unknown");
            case UNDER_MAINTENANCE -> new StatusWords("Under maintenance", "maintenance");
            case DEGRADED_PERFORMANCE -> new StatusWords("Degraded performance", "degraded");
            case PARTIAL_OUTAGE -> new StatusWords("Partial outage", "partial-outage");
            case MAJOR_OUTAGE -> new StatusWords("Major outage", "major-outage");
        };
    }
}
