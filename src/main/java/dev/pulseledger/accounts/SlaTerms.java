package dev.pulseledger.accounts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A plan's SLA (CONTRACT §13): the services whose uptime it promises and the tiers of credit when a
 * period's uptime falls below a tier's {@code below}. Stored as one line of text,
 * {@code api,dashboard|0.999:10,0.99:25}, which {@link #toText()} writes and {@link #fromText} reads.
 */
public record SlaTerms(List<String> services, List<Tier> tiers) {
    public static final int MAX_SERVICES = 10;
    public static final int MAX_TIERS = 10;

    public SlaTerms {
        services = List.copyOf(services);
        tiers = List.copyOf(tiers);
        if (services.isEmpty() || services.size() > MAX_SERVICES || tiers.isEmpty() || tiers.size() > MAX_TIERS) {
            throw new IllegalArgumentException("An SLA names 1 to 10 services and 1 to 10 tiers");
        }
    }

    /** One tier: a period whose uptime is below {@code below} earns {@code creditPercent} of its allowance. */
    public record Tier(double below, int creditPercent) {
        public Tier {
            if (!(below > 0 && below < 1) || creditPercent < 1 || creditPercent > 100) {
                throw new IllegalArgumentException("A tier needs below in (0, 1) and creditPercent 1 to 100");
            }
        }
    }

    /** The tier that applies to the uptime (the largest credit percent among those breached), if any. */
    public Optional<Tier> tierFor(double uptime) {
        return tiers.stream().filter(t -> uptime < t.below()).max(Comparator.comparingInt(Tier::creditPercent));
    }

    public String toText() {
        List<String> tierTexts = new ArrayList<>();
        for (Tier tier : tiers) {
            tierTexts.add(Double.toString(tier.below()) + ":" + tier.creditPercent());
        }
        return String.join(",", services) + "|" + String.join(",", tierTexts);
    }

    /** Reads {@link #toText()}'s form (spaces allowed); throws IllegalArgumentException when it is not one. */
    public static SlaTerms fromText(String text) {
        String[] halves = text.replace(" ", "").split("\\|", -1);
        if (halves.length != 2) {
            throw new IllegalArgumentException("Not an SLA: " + text);
        }
        List<Tier> tiers = new ArrayList<>();
        for (String tier : halves[1].split(",", -1)) {
            String[] parts = tier.split(":", -1);
            if (parts.length != 2) {
                throw new IllegalArgumentException("Not a tier: " + tier);
            }
            tiers.add(new Tier(Double.parseDouble(parts[0]), Integer.parseInt(parts[1])));
        }
        return new SlaTerms(List.of(halves[0].split(",", -1)), tiers);
    }

    /** The SLA as an operator types it in the console: {@code api, dashboard | 0.999:10, 0.99:25}. */
    public String toDisplay() {
        return toText().replace(",", ", ").replace("|", " | ");
    }
}
