package dev.pulseledger.statuspage;

import dev.pulseledger.pulse.ServiceStatus;

/** How the page names and colours each status, and how grave it is for the page's summary. */
record StatusWords(String label, String tone, int severity) {

    static StatusWords of(ServiceStatus status) {
        // The tone is a CSS class suffix; every tone pairs its colour with these words, never alone.
        return switch (status) {
            case OPERATIONAL -> new StatusWords("Operational", "operational", 0);
            case UNKNOWN -> new StatusWords("Status unknown", "unknown", 1);
            case UNDER_MAINTENANCE -> new StatusWords("Under maintenance", "maintenance", 2);
            case DEGRADED_PERFORMANCE -> new StatusWords("Degraded performance", "degraded", 3);
            case PARTIAL_OUTAGE -> new StatusWords("Partial outage", "partial-outage", 4);
            case MAJOR_OUTAGE -> new StatusWords("Major outage", "major-outage", 5);
        };
    }
}
