package dev.pulseledger.cli;

import static dev.pulseledger.cli.Output.column;

import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pulseledger incidents}: open incidents, post their updates, read and remove them. */
@Command(name = "incidents", description = "Open incidents, post updates to them, and read or remove them.")
public final class IncidentsCommand extends CommandGroup {
    private static final String STATUSES = "investigating, identified, monitoring or resolved";

    private static final Output INCIDENTS = Output.table(
            column("ID", "id"),
            column("TITLE", "title"),
            column("IMPACT", "impact"),
            column("STATUS", "status"),
            column("SERVICES", "services"),
            column("CREATED", "createdAt"),
            column("RESOLVED", "resolvedAt"));

    /** What an update says: the options {@code open} and {@code update} share. */
    static final class UpdateFields {
        @Option(names = "--message", required = true, paramLabel = "TEXT", description = "What callers read.")
        String message;

        @Option(
                names = "--service",
                paramLabel = "SERVICE_ID=STATUS",
                description = "Sets a service's status with this update; repeat for more services.")
        @Nullable
        Map<String, String> services;

        RequestBody addTo(RequestBody body) {
            return body.with("message", message).with("services", services);
        }
    }

    @Command(name = "list", description = "List every incident, newest first, one page at a time.")
    int list(@Mixin OperatorOptions options, @Mixin PageOptions page) {
        return options.run(client -> client.get("/admin/incidents" + page.query()), INCIDENTS);
    }

    @Command(name = "get", description = "Show one incident with its updates.")
    int get(@Mixin OperatorOptions options, @Parameters(paramLabel = "INCIDENT_ID") String incidentId) {
        return options.run(client -> client.get(path(incidentId)), Output.record());
    }

    @Command(name = "open", description = "Open an incident, setting the statuses of the services it names.")
    int open(
            @Mixin OperatorOptions options,
            @Option(names = "--title", required = true, paramLabel = "TEXT") String title,
            @Option(names = "--impact", paramLabel = "IMPACT", description = "none, minor, major or critical")
                    String impact,
            @Option(names = "--status", paramLabel = "STATUS", description = STATUSES) String status,
            @Mixin UpdateFields fields) {
        RequestBody body = fields.addTo(
                new RequestBody().with("title", title).with("impact", impact).with("status", status));
        return options.run(client -> client.post("/admin/incidents", body), Output.record());
    }

    @Command(name = "update", description = "Post an update; only the services it names change.")
    int update(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "INCIDENT_ID") String incidentId,
            @Option(names = "--status", required = true, paramLabel = "STATUS", description = STATUSES) String status,
            @Mixin UpdateFields fields) {
        RequestBody body = fields.addTo(new RequestBody().with("status", status));
        return options.run(client -> client.post(path(incidentId) + "/updates", body), Output.record());
    }

    @Command(name = "edit", description = "Change an incident's title or impact.")
    int edit(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "INCIDENT_ID") String incidentId,
            @Option(names = "--title", paramLabel = "TEXT") String title,
            @Option(names = "--impact", paramLabel = "IMPACT") String impact) {
        RequestBody body = new RequestBody().with("title", title).with("impact", impact);
        if (body.isEmpty()) {
            throw options.usageError("Nothing to change: give --title or --impact");
        }
        return options.run(client -> client.patch(path(incidentId), body), Output.record());
    }

    @Command(name = "delete", description = "Remove an incident; services keep their statuses.")
    int delete(@Mixin OperatorOptions options, @Parameters(paramLabel = "INCIDENT_ID") String incidentId) {
        return options.run(client -> client.delete(path(incidentId)), Output.message("Deleted " + incidentId + "."));
    }

    private static String path(String incidentId) {
        return "/admin/incidents/" + OperatorClient.segment(incidentId);
    }
}
