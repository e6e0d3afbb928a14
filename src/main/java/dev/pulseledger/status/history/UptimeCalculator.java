package dev.pulseledger.status.history;

import dev.pulseledger.status.services.ServiceStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns a service's status history into daily uptime (CONTRACT §9) and the uptime of any window, such as
 * an SLA period (§13): a major outage counts as down, a
 * partial outage as 0.3 down, every other status as up, and time before the service existed, or not
 * yet come, as no data. Days are UTC days; today counts up to {@code now}.
 */
public final class UptimeCalculator {
    /** Share of a partial outage that counts as down. */
    static final double PARTIAL_OUTAGE_WEIGHT = 0.3;

    public static final int MAX_DAYS = 90;

    private UptimeCalculator() {}

    /** One stretch of time at one status. */
    private record Stretch(Instant from, Instant to, ServiceStatus status) {}

    /**
     * The service's uptime over the last {@code days} days up to {@code now}.
     *
     * @param createdAt when the service came to exist
     * @param current its status now
     * @param changes its changes at or after the first day's start, in the order they happened
     */
    public static UptimeReport compute(
            Instant createdAt, ServiceStatus current, List<StatusChange> changes, Instant now, int days) {
        if (days < 1 || days > MAX_DAYS) {
            throw new IllegalArgumentException("days must be 1 to " + MAX_DAYS + ": " + days);
        }
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        LocalDate first = today.minusDays(days - 1L);
        List<Stretch> stretches = stretches(createdAt, current, changes, start(first), now);
        List<UptimeReport.Day> report = new ArrayList<>(days);
        double observedSeconds = 0;
        double downSeconds = 0;
        for (LocalDate date = first; !date.isAfter(today); date = date.plusDays(1)) {
            Tally day = tally(stretches, start(date), start(date.plusDays(1)));
            report.add(new UptimeReport.Day(date, day.uptime(), day.worst()));
            observedSeconds += day.observedSeconds();
            downSeconds += day.downSeconds();
        }
        return new UptimeReport(first, today, ratio(observedSeconds, downSeconds), report);
    }

    /**
     * The service's time-weighted uptime from {@code from} to {@code to} (an SLA period, CONTRACT §13, by
     * the same rule as the daily bars); empty when the service did not exist in that time.
     *
     * @param changes its changes at or after {@code from}, in the order they happened
     */
    public static Optional<Double> uptime(
            Instant createdAt, ServiceStatus current, List<StatusChange> changes, Instant from, Instant to) {
        return tally(stretches(createdAt, current, changes, from, to), from, to).uptime();
    }

    /** Seconds observed and seconds down within a window, and the worst status held in it. */
    private record Tally(double observedSeconds, double downSeconds, Optional<ServiceStatus> worst) {
        Optional<Double> uptime() {
            return ratio(observedSeconds, downSeconds);
        }
    }

    private static Tally tally(List<Stretch> stretches, Instant from, Instant to) {
        double observed = 0;
        double down = 0;
        Optional<ServiceStatus> worst = Optional.empty();
        for (Stretch stretch : stretches) {
            double seconds = overlapSeconds(stretch, from, to);
            if (seconds <= 0) {
                continue;
            }
            observed += seconds;
            down += seconds * downWeight(stretch.status());
            if (worst.isEmpty() || stretch.status().severity() > worst.get().severity()) {
                worst = Optional.of(stretch.status());
            }
        }
        return new Tally(observed, down, worst);
    }

    /** The service's statuses from the later of {@code windowStart} and its creation until {@code now}. */
    private static List<Stretch> stretches(
            Instant createdAt, ServiceStatus current, List<StatusChange> changes, Instant windowStart, Instant now) {
        // Rows older than the creation belong to an earlier service of the same id, since removed.
        List<StatusChange> relevant =
                changes.stream().filter(c -> !c.at().isBefore(createdAt)).toList();
        Instant at = createdAt.isAfter(windowStart) ? createdAt : windowStart;
        ServiceStatus status = relevant.isEmpty()
                ? current
                : relevant.getFirst().from().orElse(relevant.getFirst().to());
        List<Stretch> stretches = new ArrayList<>();
        for (StatusChange change : relevant) {
            if (change.at().isAfter(at)) {
                stretches.add(new Stretch(at, min(change.at(), now), status));
                at = change.at();
            }
            status = change.to();
        }
        if (now.isAfter(at)) {
            stretches.add(new Stretch(at, now, status));
        }
        return stretches;
    }

    private static double downWeight(ServiceStatus status) {
        return switch (status) {
            case MAJOR_OUTAGE -> 1.0;
            case PARTIAL_OUTAGE -> PARTIAL_OUTAGE_WEIGHT;
            default -> 0.0;
        };
    }

    private static Optional<Double> ratio(double observedSeconds, double downSeconds) {
        return observedSeconds <= 0 ? Optional.empty() : Optional.of(1.0 - downSeconds / observedSeconds);
    }

    private static double overlapSeconds(Stretch stretch, Instant from, Instant to) {
        Instant start = stretch.from().isAfter(from) ? stretch.from() : from;
        Instant end = min(stretch.to(), to);
        return end.isAfter(start) ? Duration.between(start, end).toMillis() / 1000.0 : 0;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant start(LocalDate date) {
        return date.atStartOfDay(ZoneOffset.UTC).toInstant();
    }
}
