package dev.pulseledger.admin;

import dev.pulseledger.accounts.SlaTerms;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Reads a plan's {@code sla} field (CONTRACT §13), naming the exact field that is wrong. */
final class SlaField {
    private static final Set<String> FIELDS = Set.of("services", "tiers");
    private static final Set<String> TIER_FIELDS = Set.of("below", "creditPercent");

    private SlaField() {}

    /** The SLA in the body; empty when absent or null. Whether its services exist is checked by the caller. */
    static Optional<SlaTerms> read(JsonBody body) {
        return body.optionalObject("sla", FIELDS).map(sla -> {
            List<String> services = sla.requiredStringList("services", SlaTerms.MAX_SERVICES, 63);
            for (String service : services) {
                if (!JsonBody.SLUG.matcher(service).matches()) {
                    throw ProblemException.invalidField("sla.services", "must hold service ids");
                }
            }
            if (new HashSet<>(services).size() != services.size()) {
                throw ProblemException.invalidField("sla.services", "must not name a service twice");
            }
            List<SlaTerms.Tier> tiers = sla.requiredObjectList("tiers", SlaTerms.MAX_TIERS, TIER_FIELDS).stream()
                    .map(tier -> new SlaTerms.Tier(
                            tier.requiredFraction("below"), (int) tier.requiredLong("creditPercent", 1, 100)))
                    .toList();
            return new SlaTerms(services, tiers);
        });
    }
}
