package dev.pulseledger.cli;

import static dev.pulseledger.cli.Output.column;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pulseledger operators}: add, list, change and disable operators, and issue and revoke their admin keys. */
@Command(
        name = "operators",
        description = "Add, list, change and disable operators; issue and revoke their admin keys; read the audit log.")
public final class OperatorsCommand extends CommandGroup {
    private static final String PATH = "/admin/operators";
    private static final Output OPERATORS = Output.table(
            column("ID", "id"),
            column("NAME", "name"),
            column("EMAIL", "email"),
            column("ROLE", "role"),
            column("DISABLED", "disabled"),
            column("TOTP", "totp"));
    private static final Output KEYS = Output.table(
            column("ID", "id"), column("NAME", "name"), column("PREFIX", "prefix"), column("REVOKED", "revokedAt"));
    private static final Output AUDIT = Output.table(
            column("AT", "at"),
            column("OPERATOR", "operatorName"),
            column("VIA", "via"),
            column("METHOD", "method"),
            column("PATH", "path"),
            column("STATUS", "status"));
    private static final Output ISSUED = (body, out) -> {
        Output.record().print(body, out);
        out.println();
        out.println("Hand the key to the operator now: it is shown only this once.");
    };

    @Command(name = "list", description = "List operators.")
    int list(@Mixin OperatorOptions options) {
        return options.run(client -> client.get(PATH), OPERATORS);
    }

    @Command(name = "create", description = "Add an operator with a role: owner, billing, status or viewer.")
    int create(
            @Mixin OperatorOptions options,
            @Option(names = "--name", required = true, paramLabel = "NAME") String name,
            @Option(names = "--email", required = true, paramLabel = "EMAIL") String email,
            @Option(names = "--role", required = true, paramLabel = "ROLE") String role) {
        RequestBody body =
                new RequestBody().with("name", name).with("email", email).with("role", role);
        return options.run(client -> client.post(PATH, body), Output.record());
    }

    @Command(name = "set-role", description = "Change an operator's role (the last owner keeps theirs).")
    int setRole(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "OPERATOR_ID") String id,
            @Parameters(paramLabel = "ROLE") String role) {
        return options.run(client -> client.patch(one(id), new RequestBody().with("role", role)), Output.record());
    }

    @Command(
            name = "disable",
            description = "Disable an operator: their keys and console sessions end on every node within 5 seconds.")
    int disable(@Mixin OperatorOptions options, @Parameters(paramLabel = "OPERATOR_ID") String id) {
        return options.run(client -> client.patch(one(id), new RequestBody().with("disabled", true)), Output.record());
    }

    @Command(name = "enable", description = "Enable a disabled operator again (give them a new key).")
    int enable(@Mixin OperatorOptions options, @Parameters(paramLabel = "OPERATOR_ID") String id) {
        return options.run(client -> client.patch(one(id), new RequestBody().with("disabled", false)), Output.record());
    }

    @Command(name = "keys", description = "List an operator's admin keys (never the keys themselves).")
    int keys(@Mixin OperatorOptions options, @Parameters(paramLabel = "OPERATOR_ID") String id) {
        return options.run(client -> client.get(one(id) + "/keys"), KEYS);
    }

    @Command(name = "create-key", description = "Issue an admin key for an operator and print it, once.")
    int createKey(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "OPERATOR_ID") String id,
            @Option(names = "--name", paramLabel = "NAME", description = "A label, such as laptop.") String name) {
        return options.run(client -> client.post(one(id) + "/keys", new RequestBody().with("name", name)), ISSUED);
    }

    @Command(name = "revoke-key", description = "Revoke an operator's admin key (akey_…).")
    int revokeKey(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "OPERATOR_ID") String id,
            @Parameters(paramLabel = "KEY_ID") String keyId) {
        return options.run(
                client -> client.delete(one(id) + "/keys/" + OperatorClient.segment(keyId)),
                Output.message("Revoked " + keyId + "."));
    }

    @Command(name = "audit", description = "Read the audit log, newest first.")
    int audit(
            @Mixin OperatorOptions options,
            @Option(names = "--operator", paramLabel = "OPERATOR_ID", description = "Only this operator's changes.")
                    String operatorId) {
        String query = operatorId == null ? "" : "?operatorId=" + OperatorClient.segment(operatorId);
        return options.run(client -> client.get("/admin/audit" + query), AUDIT);
    }

    private static String one(String id) {
        return PATH + "/" + OperatorClient.segment(id);
    }
}
