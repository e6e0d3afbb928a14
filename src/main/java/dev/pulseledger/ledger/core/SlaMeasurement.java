package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Period;
import dev.pulseledger.accounts.SlaTerms;
import java.util.List;

/**
 * What was measured of one ended period of an account whose plan has an SLA (CONTRACT §13), for the core to
 * decide its credit on: the period, its SLA uptime (the lowest of the services'), the plan's SLA, the
 * allowance of that period and the incidents on those services that overlapped it.
 */
public record SlaMeasurement(
        Period period, double uptime, SlaTerms sla, long periodAllowance, List<String> incidentIds) {
    public SlaMeasurement {
        incidentIds = List.copyOf(incidentIds);
        if (uptime < 0 || uptime > 1 || periodAllowance < 0) {
            throw new IllegalArgumentException("An uptime is 0 to 1 and an allowance not negative");
        }
    }
}
