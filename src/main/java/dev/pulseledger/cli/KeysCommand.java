package dev.pulseledger.cli;

import static dev.pulseledger.cli.Output.column;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pulseledger keys}: issue, list and revoke caller keys. */
@Command(name = "keys", description = "Issue, list and revoke caller keys.")
public final class KeysCommand extends CommandGroup {
    private static final Output KEYS = Output.table(
            column("ID", "id"),
            column("NAME", "name"),
            column("PREFIX", "prefix"),
            column("CREATED", "createdAt"),
            column("EXPIRES", "expiresAt"),
            column("REVOKED", "revokedAt"));

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
                    String expiresAt) {
        RequestBody body = new RequestBody().with("name", name).with("expiresAt", expiresAt);
        return options.run(client -> client.post(path(accountId), body), ISSUED);
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
