package dev.pulseledger.cli;

import static dev.pulseledger.cli.Output.column;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pulseledger service-groups}: groups of services shown together with a rolled-up status. */
@Command(name = "service-groups", description = "List, create, rename, move and remove service groups.")
public final class ServiceGroupsCommand extends CommandGroup {
    private static final String PATH = "/admin/service-groups";

    private static final Output GROUPS = Output.table(
            column("ID", "id"), column("NAME", "name"), column("POSITION", "position"), column("UPDATED", "updatedAt"));

    @Command(name = "list", description = "List every group by position.")
    int list(@Mixin OperatorOptions options) {
        return options.run(client -> client.get(PATH), GROUPS);
    }

    @Command(name = "get", description = "Show one group.")
    int get(@Mixin OperatorOptions options, @Parameters(paramLabel = "GROUP_ID") String groupId) {
        return options.run(client -> client.get(path(groupId)), Output.record());
    }

    @Command(
            name = "create",
            description = "Create a group; services join it with: services update ID --group GROUP_ID.")
    int create(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "GROUP_ID") String groupId,
            @Option(names = "--name", required = true, paramLabel = "NAME") String name,
            @Option(names = "--position", paramLabel = "N", description = "Order on the page, ascending.")
                    Integer position) {
        RequestBody body =
                new RequestBody().with("id", groupId).with("name", name).with("position", position);
        return options.run(client -> client.post(PATH, body), Output.record());
    }

    @Command(name = "update", description = "Rename or move a group.")
    int update(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "GROUP_ID") String groupId,
            @Option(names = "--name", paramLabel = "NAME") String name,
            @Option(names = "--position", paramLabel = "N") Integer position) {
        RequestBody body = new RequestBody().with("name", name).with("position", position);
        if (body.isEmpty()) {
            throw options.usageError("Nothing to change: give --name or --position");
        }
        return options.run(client -> client.patch(path(groupId), body), Output.record());
    }

    @Command(name = "delete", description = "Remove a group; its services stay, ungrouped.")
    int delete(@Mixin OperatorOptions options, @Parameters(paramLabel = "GROUP_ID") String groupId) {
        return options.run(client -> client.delete(path(groupId)), Output.message("Deleted " + groupId + "."));
    }

    private static String path(String groupId) {
        return PATH + "/" + OperatorClient.segment(groupId);
    }
}
