package dev.pulseledger.cli;

import static dev.pulseledger.cli.Output.column;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pulseledger accounts}: create and read accounts, change their plan or status, credit them. */
@Command(name = "accounts", description = "Create and read token accounts; change plan or status; grant tokens.")
public final class AccountsCommand extends CommandGroup {
    private static final Output ACCOUNTS = Output.table(
            column("ID", "id"),
            column("NAME", "name"),
            column("PLAN", "planId"),
            column("BALANCE", "balance"),
            column("STATUS", "status"),
            column("CREATED", "createdAt"));

    private static final Output LEDGER = Output.table(
            column("AT", "createdAt"),
            column("KIND", "kind"),
            column("AMOUNT", "amount"),
            column("BALANCE AFTER", "balanceAfter"),
            column("SPENDING", "spendingId"),
            column("REASON", "reason"));

    @Command(name = "list", description = "List accounts by id, one page at a time.")
    int list(@Mixin OperatorOptions options, @Mixin PageOptions page) {
        return options.run(client -> client.get("/admin/accounts" + page.query()), ACCOUNTS);
    }

    @Command(name = "get", description = "Show one account with its balance.")
    int get(@Mixin OperatorOptions options, @Parameters(paramLabel = "ACCOUNT_ID") String accountId) {
        return options.run(client -> client.get(path(accountId, "")), Output.record());
    }

    @Command(name = "create", description = "Create an account.")
    int create(
            @Mixin OperatorOptions options,
            @Option(names = "--name", required = true, paramLabel = "NAME") String name,
            @Option(names = "--plan", paramLabel = "PLAN_ID", description = "Its plan (the service's default: free).")
                    String planId,
            @Option(names = "--balance", paramLabel = "TOKENS", description = "Opening balance (default 0).")
                    Long balance) {
        RequestBody body =
                new RequestBody().with("name", name).with("planId", planId).with("balance", balance);
        return options.run(client -> client.post("/admin/accounts", body), Output.record());
    }

    @Command(name = "set-plan", description = "Move an account to another plan.")
    int setPlan(
            @Mixin OperatorOptions options,
            @Parameters(index = "0", paramLabel = "ACCOUNT_ID") String accountId,
            @Parameters(index = "1", paramLabel = "PLAN_ID") String planId) {
        RequestBody body = new RequestBody().with("planId", planId);
        return options.run(client -> client.put(path(accountId, "/plan"), body), Output.record());
    }

    @Command(
            name = "plan-change",
            description = "Change an account's plan within its period: now (prorated) or at the period's end.")
    int planChange(
            @Mixin OperatorOptions options,
            @Parameters(index = "0", paramLabel = "ACCOUNT_ID") String accountId,
            @Parameters(index = "1", paramLabel = "PLAN_ID") String planId,
            @Option(
                            names = "--when",
                            required = true,
                            paramLabel = "WHEN",
                            description = "now (the period kept, the allowance prorated) or period_end (waits for"
                                    + " the renewal).")
                    String when) {
        RequestBody body = new RequestBody().with("planId", planId).with("when", when);
        return options.run(client -> client.post(path(accountId, "/plan-change"), body), Output.record());
    }

    @Command(name = "cancel-plan-change", description = "Cancel the plan change that waits for the period's end.")
    int cancelPlanChange(@Mixin OperatorOptions options, @Parameters(paramLabel = "ACCOUNT_ID") String accountId) {
        return options.run(client -> client.delete(path(accountId, "/plan-change")), Output.record());
    }

    @Command(
            name = "set-status",
            description = "Suspend an account (its keys get 403 on /api/) or make it active again.")
    int setStatus(
            @Mixin OperatorOptions options,
            @Parameters(index = "0", paramLabel = "ACCOUNT_ID") String accountId,
            @Parameters(index = "1", paramLabel = "STATUS", description = "active or suspended") String status) {
        RequestBody body = new RequestBody().with("status", status);
        return options.run(client -> client.put(path(accountId, "/status"), body), Output.record());
    }

    @Command(name = "credit", description = "Grant tokens to an account, optionally expiring; prints the new balance.")
    int credit(
            @Mixin OperatorOptions options,
            @Parameters(index = "0", paramLabel = "ACCOUNT_ID") String accountId,
            @Parameters(index = "1", paramLabel = "TOKENS") long amount,
            @Option(names = "--reason", paramLabel = "TEXT", description = "Why, kept in the ledger.") String reason,
            @Option(
                            names = "--expires-at",
                            paramLabel = "TIME",
                            description =
                                    "When the tokens expire (RFC 3339, e.g. 2026-12-31T00:00:00Z); never by default.")
                    String expiresAt,
            @Option(
                            names = "--pool",
                            paramLabel = "NAME",
                            description = "The credit pool the tokens go to (made if new); default by default.")
                    String pool) {
        RequestBody body = new RequestBody()
                .with("amount", amount)
                .with("reason", reason)
                .with("expiresAt", expiresAt)
                .with("pool", pool);
        return options.run(client -> client.post(path(accountId, "/credits"), body), Output.record());
    }

    @Command(
            name = "revoke-grant",
            description = "Take back what is left of a credit grant (an SLA credit included), once.")
    int revokeGrant(
            @Mixin OperatorOptions options,
            @Parameters(index = "0", paramLabel = "ACCOUNT_ID") String accountId,
            @Parameters(index = "1", paramLabel = "GRANT_ID") String grantId) {
        return options.run(
                client -> client.post(
                        path(accountId, "/grants/" + OperatorClient.segment(grantId) + "/revoke"), new RequestBody()),
                Output.record());
    }

    @Command(name = "ledger", description = "List every balance change of an account, newest first.")
    int ledger(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "ACCOUNT_ID") String accountId,
            @Mixin PageOptions page) {
        return options.run(client -> client.get(path(accountId, "/ledger") + page.query()), LEDGER);
    }

    private static String path(String accountId, String rest) {
        return "/admin/accounts/" + OperatorClient.segment(accountId) + rest;
    }
}
