package dev.pulseledger.cli;

import static dev.pulseledger.cli.Output.column;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code pulseledger status-subscribers}: who gets the status page's notices (CONTRACT §15). Email
 * subscribers sign up on the page; webhook subscribers are added here. Addresses are personal data:
 * they are printed for the operator who asks, and nowhere else.
 */
@Command(
        name = "status-subscribers",
        description = "List, search, export, add (webhooks), show and delete the status page's subscribers.")
public final class StatusSubscribersCommand extends CommandGroup {
    private static final String PATH = "/admin/status-subscribers";

    private static final Output TABLE = Output.table(
            column("ID", "id"),
            column("TYPE", "type"),
            column("EMAIL", "email"),
            column("URL", "url"),
            column("SERVICES", "services"),
            column("STATUS", "status"),
            column("CREATED", "createdAt"));

    /** The page, then the counts the service sent with it. */
    private static final Output SUBSCRIBERS = (body, out) -> {
        TABLE.print(body, out);
        out.println("Counts: " + body.path("counts").path("emailConfirmed").asLong() + " confirmed, "
                + body.path("counts").path("emailPending").asLong() + " pending, "
                + body.path("counts").path("webhooks").asLong() + " webhooks, "
                + body.path("counts").path("allServices").asLong() + " following every service; per service: "
                + Output.printable(body.path("counts").path("services").toString()));
    };

    @Command(name = "list", description = "List subscribers, oldest first, with counts per service.")
    int list(
            @Mixin OperatorOptions options,
            @Mixin PageOptions page,
            @Option(
                            names = "--search",
                            paramLabel = "TEXT",
                            description = "Only email addresses or webhook URLs that contain TEXT (any case).")
                    @Nullable
                    String search) {
        String query = page.query();
        if (search != null) {
            query += (query.isEmpty() ? "?" : "&") + "q=" + URLEncoder.encode(search, StandardCharsets.UTF_8);
        }
        String path = PATH + query;
        return options.run(client -> client.get(path), SUBSCRIBERS);
    }

    @Command(
            name = "export",
            description = "Write every subscriber as CSV (addresses included) to standard output or a file.")
    int export(
            @Mixin OperatorOptions options,
            @Option(
                            names = {"-o", "--output"},
                            paramLabel = "FILE",
                            description = "Write to FILE (readable by you alone) instead of standard output.")
                    @Nullable
                    Path file) {
        return options.download(PATH + "/export", "text/csv", file);
    }

    @Command(name = "get", description = "Show one subscriber.")
    int get(@Mixin OperatorOptions options, @Parameters(paramLabel = "SUBSCRIBER_ID") String subscriberId) {
        return options.run(client -> client.get(path(subscriberId)), Output.record());
    }

    @Command(name = "add-webhook", description = "Add a webhook subscriber; its signing secret is printed this once.")
    int addWebhook(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "ENDPOINT_URL", description = "Where signed notices are posted.") String url,
            @Option(
                            names = "--service",
                            paramLabel = "SERVICE_ID",
                            description = "Only this service's notices; repeat for more (default: every service).")
                    @Nullable
                    List<String> services) {
        RequestBody body = new RequestBody().with("url", url).with("services", services);
        return options.run(client -> client.post(PATH, body), Output.record());
    }

    @Command(name = "delete", description = "Delete a subscriber (its address is gone; no more notices).")
    int delete(@Mixin OperatorOptions options, @Parameters(paramLabel = "SUBSCRIBER_ID") String subscriberId) {
        return options.run(
                client -> client.delete(path(subscriberId)), Output.message("Deleted " + subscriberId + "."));
    }

    private static String path(String subscriberId) {
        return PATH + "/" + OperatorClient.segment(subscriberId);
    }
}
