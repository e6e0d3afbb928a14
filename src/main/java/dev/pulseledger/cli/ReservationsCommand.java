package dev.pulseledger.cli;

import static dev.pulseledger.cli.Output.column;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pulseledger reservations}: an account's reservations (CONTRACT §8), as operators see them. */
@Command(name = "reservations", description = "List an account's reservations: tokens held until settled.")
public final class ReservationsCommand extends CommandGroup {
    private static final Output RESERVATIONS = Output.table(
            column("ID", "reservationId"),
            column("AMOUNT", "amount"),
            column("STATUS", "status"),
            column("SETTLED", "settledAmount"),
            column("SPENDING", "spendingId"),
            column("CREATED", "createdAt"),
            column("EXPIRES", "expiresAt"),
            column("ENDED", "endedAt"));

    @Command(name = "list", description = "List an account's reservations, newest first.")
    int list(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "ACCOUNT_ID") String accountId,
            @Option(
                            names = "--status",
                            paramLabel = "STATUS",
                            description = "Only these: held, settled, released or expired.")
                    @Nullable
                    String status,
            @Mixin PageOptions page) {
        String query = page.query();
        if (status != null) {
            String filter = "status=" + URLEncoder.encode(status, StandardCharsets.UTF_8);
            query = query.isEmpty() ? "?" + filter : query + "&" + filter;
        }
        String path = "/admin/accounts/" + OperatorClient.segment(accountId) + "/reservations" + query;
        return options.run(client -> client.get(path), RESERVATIONS);
    }
}
