package dev.pulseledger.console;

import dev.pulseledger.console.ConsoleSessions.Session;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.ServiceStore;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** The console's home: the last 24 hours of spends, refusals and webhook failures, top spenders, services. */
final class DashboardPage {
    static final int HOURS = 24;
    private static final int TOP_ACCOUNTS = 10;
    private static final DateTimeFormatter HOUR =
            DateTimeFormatter.ofPattern("HH:00", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    private final DashboardQueries queries;
    private final ServiceStore services;
    private final ConsoleView view;
    private final Clock clock;

    DashboardPage(DashboardQueries queries, ServiceStore services, ConsoleView view, Clock clock) {
        this.queries = queries;
        this.services = services;
        this.view = view;
        this.clock = clock;
    }

    void register(RouteTable routes, ConsoleGuard guard) {
        routes.get("/console", guard.page(this::show));
    }

    private void show(ServerRequest req, ServerResponse res, Session session) {
        Instant thisHour = clock.instant().truncatedTo(ChronoUnit.HOURS);
        Instant since = thisHour.minus(Duration.ofHours(HOURS - 1));
        List<Instant> hours = new ArrayList<>(HOURS);
        for (int i = 0; i < HOURS; i++) {
            hours.add(since.plus(Duration.ofHours(i)));
        }
        Map<Long, DashboardQueries.Hour> spends = queries.hourlySpends(since);
        Map<Long, Long> failures = queries.hourlyWebhookFailures(since);
        DashboardQueries.Hour none = new DashboardQueries.Hour(0, 0);
        List<Service> all = services.all();
        Map<ServiceStatus, Long> byStatus = new EnumMap<>(ServiceStatus.class);
        all.forEach(service -> byStatus.merge(service.status(), 1L, Long::sum));

        Map<String, Object> model = new HashMap<>();
        model.put(
                "spent",
                chart(
                        "Tokens spent per hour",
                        "tokens",
                        hours,
                        at -> spends.getOrDefault(at, none).tokens()));
        model.put(
                "refused",
                chart(
                        "Spends refused (402) per hour",
                        "refusals",
                        hours,
                        at -> spends.getOrDefault(at, none).refusals()));
        model.put(
                "webhookFailures",
                chart("Failed webhook attempts per hour", "failures", hours, at -> failures.getOrDefault(at, 0L)));
        List<DashboardQueries.TopAccount> top = queries.topAccounts(since, TOP_ACCOUNTS);
        model.put("topAccounts", top);
        model.put("topMax", top.isEmpty() ? 1 : top.getFirst().tokens());
        model.put("services", all.stream().sorted(Service.PULSE_ORDER).toList());
        model.put(
                "statusCounts",
                byStatus.entrySet().stream()
                        .map(e -> Map.of("status", e.getKey().wire(), "count", e.getValue()))
                        .toList());
        view.render(res, 200, "dashboard", Optional.of(session), model);
    }

    private static BarChart chart(String title, String unit, List<Instant> hours, Function<Long, Long> value) {
        return BarChart.of(
                title,
                unit,
                hours.stream()
                        .map(at -> new BarChart.Point(HOUR.format(at), value.apply(at.toEpochMilli())))
                        .toList());
    }
}
