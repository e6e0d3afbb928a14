package dev.pulseledger.status.history;

import static dev.pulseledger.status.services.ServiceStatus.DEGRADED_PERFORMANCE;
import static dev.pulseledger.status.services.ServiceStatus.MAJOR_OUTAGE;
import static dev.pulseledger.status.services.ServiceStatus.OPERATIONAL;
import static dev.pulseledger.status.services.ServiceStatus.PARTIAL_OUTAGE;
import static dev.pulseledger.status.services.ServiceStatus.UNDER_MAINTENANCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.StatusSource;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The uptime arithmetic of CONTRACT §9, with time fixed by the test. */
class UptimeCalculatorTest {
    private static final Instant LONG_AGO = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aMajorOutageCountsAsDownAndItsDayShowsItAsTheWorstStatus() {
        Instant now = Instant.parse("2026-11-23T12:00:00Z");
        List<StatusChange> changes = List.of(
                change(OPERATIONAL, MAJOR_OUTAGE, "2026-11-22T06:00:00Z"),
                change(MAJOR_OUTAGE, OPERATIONAL, "2026-11-22T12:00:00Z"));

        UptimeReport report = UptimeCalculator.compute(LONG_AGO, OPERATIONAL, changes, now, 3);

        assertThat(report.from()).isEqualTo(LocalDate.parse("2026-11-21"));
        assertThat(report.to()).isEqualTo(LocalDate.parse("2026-11-23"));
        assertThat(report.days())
                .extracting(UptimeReport.Day::date)
                .containsExactly(
                        LocalDate.parse("2026-11-21"), LocalDate.parse("2026-11-22"), LocalDate.parse("2026-11-23"));
        assertThat(uptime(report, 0)).isEqualTo(1.0);
        assertThat(uptime(report, 1)).isCloseTo(0.75, within(1e-9));
        assertThat(report.days().get(1).worst()).contains(MAJOR_OUTAGE);
        assertThat(report.days().get(0).worst()).contains(OPERATIONAL);
        // Today counts only up to now: 12 h observed, all up.
        assertThat(uptime(report, 2)).isEqualTo(1.0);
        // 6 h down in 24 + 24 + 12 observed hours.
        assertThat(report.uptime().orElseThrow()).isCloseTo(1 - 6.0 / 60, within(1e-9));
    }

    @Test
    void aPartialOutageCountsAsThreeTenthsDownAndOtherStatusesAsUp() {
        Instant now = Instant.parse("2026-11-24T00:00:00Z");
        List<StatusChange> changes = List.of(
                change(OPERATIONAL, PARTIAL_OUTAGE, "2026-11-23T00:00:00Z"),
                change(PARTIAL_OUTAGE, DEGRADED_PERFORMANCE, "2026-11-23T10:00:00Z"),
                change(DEGRADED_PERFORMANCE, UNDER_MAINTENANCE, "2026-11-23T12:00:00Z"),
                change(UNDER_MAINTENANCE, ServiceStatus.UNKNOWN, "2026-11-23T18:00:00Z"));

        UptimeReport report = UptimeCalculator.compute(LONG_AGO, ServiceStatus.UNKNOWN, changes, now, 2);

        // 10 h partial = 3 h down; degraded, maintenance and unknown are up.
        assertThat(uptime(report, 0)).isCloseTo(1 - 3.0 / 24, within(1e-9));
        assertThat(report.days().get(0).worst()).contains(PARTIAL_OUTAGE);
        // The first second of the next UTC day is a day with no time observed yet.
        assertThat(report.days().get(1).date()).isEqualTo(LocalDate.parse("2026-11-24"));
        assertThat(report.days().get(1).uptime()).isEmpty();
    }

    @Test
    void anOutageAcrossMidnightUtcIsSplitBetweenTheTwoDays() {
        Instant now = Instant.parse("2026-11-23T23:59:59Z");
        List<StatusChange> changes = List.of(
                change(OPERATIONAL, MAJOR_OUTAGE, "2026-11-22T22:00:00Z"),
                change(MAJOR_OUTAGE, OPERATIONAL, "2026-11-23T03:00:00Z"));

        UptimeReport report = UptimeCalculator.compute(LONG_AGO, OPERATIONAL, changes, now, 2);

        assertThat(uptime(report, 0)).isCloseTo(1 - 2.0 / 24, within(1e-9));
        assertThat(uptime(report, 1)).isCloseTo(1 - 3.0 / (24 - 1.0 / 3600), within(1e-9));
        assertThat(report.days()).allSatisfy(day -> assertThat(day.worst()).contains(MAJOR_OUTAGE));
    }

    @Test
    void timeBeforeTheServiceExistedIsNoDataNotUptime() {
        Instant created = Instant.parse("2026-11-22T18:00:00Z");
        Instant now = Instant.parse("2026-11-23T06:00:00Z");
        List<StatusChange> changes =
                List.of(creation(MAJOR_OUTAGE, created), change(MAJOR_OUTAGE, OPERATIONAL, "2026-11-22T21:00:00Z"));

        UptimeReport report = UptimeCalculator.compute(created, OPERATIONAL, changes, now, 90);

        assertThat(report.days()).hasSize(90);
        assertThat(report.days().subList(0, 88)).allSatisfy(day -> {
            assertThat(day.uptime()).isEmpty();
            assertThat(day.worst()).isEmpty();
        });
        // Created at 18:00: 6 h observed that day, 3 of them down.
        assertThat(uptime(report, 88)).isCloseTo(0.5, within(1e-9));
        assertThat(uptime(report, 89)).isEqualTo(1.0);
        assertThat(report.uptime().orElseThrow()).isCloseTo(1 - 3.0 / 12, within(1e-9));
    }

    @Test
    void historyOfAnEarlierServiceWithTheSameIdIsIgnored() {
        Instant created = Instant.parse("2026-11-23T00:00:00Z");
        Instant now = Instant.parse("2026-11-23T12:00:00Z");
        List<StatusChange> changes =
                List.of(change(OPERATIONAL, MAJOR_OUTAGE, "2026-11-22T10:00:00Z"), creation(OPERATIONAL, created));

        UptimeReport report = UptimeCalculator.compute(created, OPERATIONAL, changes, now, 2);

        assertThat(report.days().get(0).uptime()).isEmpty();
        assertThat(uptime(report, 1)).isEqualTo(1.0);
    }

    @Test
    void withoutAnyChangeInTheWindowTheCurrentStatusHeldThroughout() {
        Instant now = Instant.parse("2026-11-23T12:00:00Z");

        UptimeReport report = UptimeCalculator.compute(LONG_AGO, PARTIAL_OUTAGE, List.of(), now, 1);

        assertThat(uptime(report, 0)).isCloseTo(0.7, within(1e-9));
        assertThat(report.uptime().orElseThrow()).isCloseTo(0.7, within(1e-9));
    }

    private static double uptime(UptimeReport report, int day) {
        return report.days().get(day).uptime().orElseThrow();
    }

    private static StatusChange change(ServiceStatus from, ServiceStatus to, String at) {
        return new StatusChange("api", Optional.of(from), to, StatusSource.OPERATOR, Instant.parse(at));
    }

    private static StatusChange creation(ServiceStatus status, Instant at) {
        return new StatusChange("api", Optional.empty(), status, StatusSource.OPERATOR, at);
    }
}
