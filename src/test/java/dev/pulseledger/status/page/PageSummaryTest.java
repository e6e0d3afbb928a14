package dev.pulseledger.status.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.i18n.Language;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PageSummaryTest {
    @Test
    void everyServiceOperationalIsAllSystemsOperational() {
        PageSummary summary = summary(services(ServiceStatus.OPERATIONAL, ServiceStatus.OPERATIONAL));
        assertThat(summary.headline()).isEqualTo("All systems operational");
        assertThat(summary.detail()).isEqualTo("Every service is running normally.");
        assertThat(summary.tone()).isEqualTo("operational");
    }

    @Test
    void theGravestStatusLeadsAndAffectedServicesAreCounted() {
        PageSummary summary = summary(services(
                ServiceStatus.OPERATIONAL,
                ServiceStatus.UNDER_MAINTENANCE,
                ServiceStatus.PARTIAL_OUTAGE,
                ServiceStatus.DEGRADED_PERFORMANCE));
        assertThat(summary.headline()).isEqualTo("Partial outage");
        assertThat(summary.detail()).isEqualTo("3 of 4 services are not fully operational.");
        assertThat(summary.tone()).isEqualTo("partial-outage");

        assertThat(summary(services(ServiceStatus.MAJOR_OUTAGE, ServiceStatus.PARTIAL_OUTAGE))
                        .headline())
                .isEqualTo("Major outage");
        assertThat(summary(services(ServiceStatus.UNKNOWN, ServiceStatus.OPERATIONAL))
                        .detail())
                .isEqualTo("1 of 2 services is not fully operational.");
        assertThat(summary(services(ServiceStatus.UNDER_MAINTENANCE, ServiceStatus.UNKNOWN))
                        .headline())
                .isEqualTo("Maintenance in progress");
    }

    @Test
    void noServicesSaysSo() {
        assertThat(summary(List.of()).headline()).isEqualTo("No services listed yet");
    }

    private static List<Service> services(ServiceStatus... statuses) {
        return Arrays.stream(statuses)
                .map(status -> new Service(
                        "s-" + status.wire().replace('_', '-'),
                        "S",
                        "",
                        status,
                        false,
                        0,
                        true,
                        Instant.EPOCH,
                        Optional.empty()))
                .toList();
    }

    private static PageSummary summary(List<Service> services) {
        return PageSummary.of(services, Messages.of("status", Language.EN));
    }
}
