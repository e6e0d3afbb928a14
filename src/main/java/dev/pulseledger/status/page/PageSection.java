package dev.pulseledger.status.page;

import dev.pulseledger.status.services.Service;
import java.util.List;

/** A part another feature adds to the status page, above its footer (the subscribe form, say). */
@FunctionalInterface
public interface PageSection {
    PageSection NONE = services -> "";

    /** The section's HTML for the services the page lists; every value in it already escaped. */
    String html(List<Service> services);
}
