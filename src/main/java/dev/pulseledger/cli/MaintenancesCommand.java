package dev.pulseledger.cli;

import static dev.pulseledger.cli.Output.column;

import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pulseledger maintenances}: schedule maintenance windows, move and remove them. */
@Command(name = "maintenances", description = "Schedule maintenance windows; move or remove them.")
public final class MaintenancesCommand extends CommandGroup {
    private static final Output WINDOWS = Output.table(
            column("ID", "id"),
            column("TITLE", "title"),
            column("STATUS", "status"),
            column("SERVICES", "services"),
            column("STARTS", "startsAt"),
            column("ENDS", "endsAt"));

    @Command(name = "list", description = "List every window, newest first, one page at a time.")
    int list(@Mixin OperatorOptions options, @Mixin PageOptions page) {
        return options.run(client -> client.get("/admin/maintenances" + page.query()), WINDOWS);
    }

    @Command(name = "get", description = "Show one window.")
    int get(@Mixin OperatorOptions options, @Parameters(paramLabel = "MAINTENANCE_ID") String maintenanceId) {
        return options.run(client -> client.get(path(maintenanceId)), Output.record());
    }

    @Command(
            name = "schedule",
            description = "Schedule a window: its services go under_maintenance at the start and back at the end.")
    int schedule(
            @Mixin OperatorOptions options,
            @Option(names = "--title", required = true, paramLabel = "TEXT") String title,
            @Option(names = "--message", paramLabel = "TEXT") String message,
            @Option(names = "--service", required = true, paramLabel = "SERVICE_ID", description = "Repeat for more.")
                    List<String> services,
            @Option(
                            names = "--starts-at",
                            required = true,
                            paramLabel = "TIME",
                            description = "RFC 3339, e.g. 2026-11-28T02:00:00Z")
                    String startsAt,
            @Option(names = "--ends-at", required = true, paramLabel = "TIME") String endsAt) {
        RequestBody body = new RequestBody()
                .with("title", title)
                .with("message", message)
                .with("services", services)
                .with("startsAt", startsAt)
                .with("endsAt", endsAt);
        return options.run(client -> client.post("/admin/maintenances", body), Output.record());
    }

    @Command(name = "edit", description = "Change a window's text or times (the start only until it starts).")
    int edit(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "MAINTENANCE_ID") String maintenanceId,
            @Option(names = "--title", paramLabel = "TEXT") String title,
            @Option(names = "--message", paramLabel = "TEXT") String message,
            @Option(names = "--starts-at", paramLabel = "TIME") String startsAt,
            @Option(names = "--ends-at", paramLabel = "TIME") String endsAt) {
        RequestBody body = new RequestBody()
                .with("title", title)
                .with("message", message)
                .with("startsAt", startsAt)
                .with("endsAt", endsAt);
        if (body.isEmpty()) {
            throw options.usageError("Nothing to change: give at least one of the options");
        }
        return options.run(client -> client.patch(path(maintenanceId), body), Output.record());
    }

    @Command(name = "delete", description = "Remove a window; one in progress first puts its services back.")
    int delete(@Mixin OperatorOptions options, @Parameters(paramLabel = "MAINTENANCE_ID") String maintenanceId) {
        return options.run(
                client -> client.delete(path(maintenanceId)), Output.message("Deleted " + maintenanceId + "."));
    }

    private static String path(String maintenanceId) {
        return "/admin/maintenances/" + OperatorClient.segment(maintenanceId);
    }
}
