package dev.pulseledger.cli;

import static dev.pulseledger.cli.Output.column;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pulseledger services}: the provider's services and their statuses, as the pulse shows them. */
@Command(name = "services", description = "List, create, change and remove services and set their status.")
public final class ServicesCommand extends CommandGroup {
    private static final String STATUSES =
            "operational, degraded_performance, partial_outage, major_outage, under_maintenance or unknown";

    private static final Output SERVICES = Output.table(
            column("ID", "id"),
            column("NAME", "name"),
            column("STATUS", "status"),
            column("SPOTLIGHTED", "spotlighted"),
            column("POSITION", "position"),
            column("PUBLIC", "public"),
            column("GROUP", "groupId"),
            column("UPDATED", "updatedAt"));

    private static final Output HISTORY = Output.table(
            column("AT", "at"),
            column("FROM", "from"),
            column("TO", "to"),
            column("BY", "by/type"),
            column("ID", "by/id"));

    /** The service fields that both put and update may set. */
    static final class ServiceFields {
        @Option(names = "--description", paramLabel = "TEXT")
        @Nullable
        String description;

        @Option(names = "--status", paramLabel = "STATUS", description = STATUSES)
        @Nullable
        String status;

        @Option(names = "--spotlighted", negatable = true, description = "Listed before the others.")
        @Nullable
        Boolean spotlighted;

        @Option(names = "--position", paramLabel = "N", description = "Order inside its group, ascending.")
        @Nullable
        Integer position;

        @Option(names = "--public", negatable = true, description = "Listed by GET /api/pulse.")
        @Nullable
        Boolean listed;

        @Option(names = "--group", paramLabel = "GROUP_ID", description = "The service group it belongs to.")
        @Nullable
        String group;

        @Option(names = "--ungroup", description = "Take it out of its service group.")
        boolean ungroup;

        RequestBody addTo(RequestBody body) {
            if (ungroup) {
                body.withNull("groupId");
            }
            return body.with("groupId", group)
                    .with("description", description)
                    .with("status", status)
                    .with("spotlighted", spotlighted)
                    .with("position", position)
                    .with("public", listed);
        }
    }

    @Command(name = "list", description = "List every service, public or not, in pulse order.")
    int list(@Mixin OperatorOptions options) {
        return options.run(client -> client.get("/admin/services"), SERVICES);
    }

    @Command(name = "get", description = "Show one service.")
    int get(@Mixin OperatorOptions options, @Parameters(paramLabel = "SERVICE_ID") String serviceId) {
        return options.run(client -> client.get(path(serviceId)), Output.record());
    }

    @Command(
            name = "put",
            description = "Create or replace a service. Fields left out get their defaults: no description,"
                    + " operational, not spotlighted, position 0, public.")
    int put(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "SERVICE_ID") String serviceId,
            @Option(names = "--name", required = true, paramLabel = "NAME") String name,
            @Mixin ServiceFields fields) {
        RequestBody body = fields.addTo(new RequestBody().with("name", name));
        return options.run(client -> client.put(path(serviceId), body), Output.record());
    }

    @Command(name = "update", description = "Change some fields of a service; the others keep their values.")
    int update(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "SERVICE_ID") String serviceId,
            @Option(names = "--name", paramLabel = "NAME") String name,
            @Mixin ServiceFields fields) {
        RequestBody body = fields.addTo(new RequestBody().with("name", name));
        if (body.isEmpty()) {
            throw options.usageError("Nothing to change: give at least one of the options");
        }
        return options.run(client -> client.patch(path(serviceId), body), Output.record());
    }

    @Command(name = "set-status", description = "Set a service's status.")
    int setStatus(
            @Mixin OperatorOptions options,
            @Parameters(index = "0", paramLabel = "SERVICE_ID") String serviceId,
            @Parameters(index = "1", paramLabel = "STATUS", description = STATUSES) String status) {
        RequestBody body = new RequestBody().with("status", status);
        return options.run(client -> client.patch(path(serviceId), body), Output.record());
    }

    @Command(name = "history", description = "Every status change of a service, newest first, and what made it.")
    int history(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "SERVICE_ID") String serviceId,
            @Mixin PageOptions page) {
        return options.run(client -> client.get(path(serviceId) + "/history" + page.query()), HISTORY);
    }

    @Command(name = "delete", description = "Remove a service.")
    int delete(@Mixin OperatorOptions options, @Parameters(paramLabel = "SERVICE_ID") String serviceId) {
        return options.run(client -> client.delete(path(serviceId)), Output.message("Deleted " + serviceId + "."));
    }

    private static String path(String serviceId) {
        return "/admin/services/" + OperatorClient.segment(serviceId);
    }
}
