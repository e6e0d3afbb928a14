package dev.pulseledger.status.page;

import dev.pulseledger.i18n.Messages;
import java.util.Optional;

/** Who runs the page: the provider's name and where it links to, both from the settings. */
public record Branding(Optional<String> providerName, Optional<String> providerUrl) {
    /** The page's title in the page's language: "Acme status", or "Service status" without a name. */
    public String title(Messages words) {
        return providerName.map(name -> words.text("title.named", name)).orElse(words.text("title.default"));
    }
}
