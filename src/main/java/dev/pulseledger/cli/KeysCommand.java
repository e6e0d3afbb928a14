package dev.pulseledger.cli;

import static dev.pulseledger.cli.Output.column;
import static dev.pulseledger.cli.Output.listColumn;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pulseledger keys}: issue, list and revoke caller keys, and set their budgets. */
@Command(name = "keys", description = "Issue, list and revoke caller keys, and set their budgets.")
public final class KeysCommand extends CommandGroup {
    private static final Output KEYS = Output.table(
            column("ID", "id"),
            column("NAME", "name"),
            column("PREFIX", "prefix"),
            column("CREATED", "createdAt"),
            column("EXPIRES", "expiresAt"),
            column("REVOKED", "revokedAt"),
            listColumn(
                    "BUDGETS",
                    "budgets",
                    b -> b.path("pool").asText() + ":" + b.path("period").asText() + ":"
                            + b.path("tokens").asText()));
    private static final String BUDGET_HELP =
            "A budget, POOL:PERIOD:TOKENS (default:day:50000; period day, week or month, UTC). Repeat for up to 4.";

    private static final Output ISSUED = (body, out) -> {
        Output.record().print(body, out);
        out.println();
        out.println("Hand the key to the caller now: it is shown only this once.");
    };

    @Command(name = "list", description = "List an account's keys (never the keys themselves).")
    int list(@Mixin OperatorOptions options, @Parameters(paramLabel = "ACCOUNT_ID") String accountId) {
        return options.run(client -> client.get(path(accountId)), KEYS);
    }

    @Command(name = "create", description = "Issue a caller key for an account and print it, once.")
    int create(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "ACCOUNT_ID") String accountId,
            @Option(names = "--name", paramLabel = "NAME", description = "A label, such as production.") String name,
            @Option(
                            names = "--expires-at",
                            paramLabel = "TIME",
                            description = "When it stops working, RFC 3339 (2027-01-31T00:00:00Z); never if left out.")
                    String expiresAt,
            @Option(names = "--budget", paramLabel = "POOL:PERIOD:TOKENS", description = BUDGET_HELP)
                    List<String> budgets) {
        return options.run(
                client -> client.post(
                        path(accountId),
                        new RequestBody()
                                .with("name", name)
                                .with("expiresAt", expiresAt)
                                .with("budgets", budgets == null ? null : budgets(budgets))),
                ISSUED);
    }

    @Command(
            name = "budgets",
            description = "Replace a key's budgets (CONTRACT §14) with those given, or clear them with --clear.")
    int setBudgets(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "ACCOUNT_ID") String accountId,
            @Parameters(paramLabel = "KEY_ID") String keyId,
            @Option(names = "--budget", paramLabel = "POOL:PERIOD:TOKENS", description = BUDGET_HELP)
                    List<String> budgets,
            @Option(names = "--clear", description = "Remove every budget of the key.") boolean clear) {
        return options.run(
                client -> {
                    if (clear == (budgets != null)) {
                        throw new CliFailure(ExitCodes.USAGE, "Give either --budget (one or more) or --clear.");
                    }
                    return client.patch(
                            path(accountId) + "/" + OperatorClient.segment(keyId),
                            new RequestBody().with("budgets", clear ? List.of() : budgets(budgets)));
                },
                Output.record());
    }

    /** Each POOL:PERIOD:TOKENS as the API's budget object; the server checks the values. */
    private static List<Map<String, Object>> budgets(List<String> specs) {
        List<Map<String, Object>> budgets = new ArrayList<>();
        for (String spec : specs) {
            String[] parts = spec.split(":", -1);
            if (parts.length != 3) {
                throw new CliFailure(ExitCodes.USAGE, "A budget is POOL:PERIOD:TOKENS, not '" + spec + "'.");
            }
            Object tokens;
            try {
                tokens = Long.parseLong(parts[2]);
            } catch (NumberFormatException e) {
                tokens = parts[2];
            }
            budgets.add(Map.of("pool", parts[0], "period", parts[1], "tokens", tokens));
        }
        return budgets;
    }

    @Command(name = "revoke", description = "Revoke a key by its id (key_…); it stops working within 5 seconds.")
    int revoke(@Mixin OperatorOptions options, @Parameters(paramLabel = "KEY_ID") String keyId) {
        return options.run(
                client -> client.delete("/admin/keys/" + OperatorClient.segment(keyId)),
                Output.message("Revoked " + keyId + "."));
    }

    private static String path(String accountId) {
        return "/admin/accounts/" + OperatorClient.segment(accountId) + "/keys";
    }
}
