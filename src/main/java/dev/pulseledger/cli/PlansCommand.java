package dev.pulseledger.cli;

import static dev.pulseledger.cli.Output.column;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pulseledger plans}: list, read, create and change subscription plans. */
@Command(name = "plans", description = "List, create and change subscription plans.")
public final class PlansCommand extends CommandGroup {
    private static final Output PLANS = Output.table(
            column("ID", "id"),
            column("NAME", "name"),
            column("ALLOWANCE", "allowance"),
            column("PERIOD", "period"),
            column("ROLLOVER", "rollover"),
            column("RATE/MIN", "rateLimitPerMinute"),
            column("UPDATED", "updatedAt"));

    /** The plan fields that both create and update may set. */
    static final class PlanFields {
        @Option(names = "--description", paramLabel = "TEXT", description = "What the plan is for.")
        @Nullable
        String description;

        @Option(names = "--allowance", paramLabel = "N", description = "Tokens the plan grants each period.")
        @Nullable
        Long allowance;

        @Option(names = "--period", paramLabel = "PERIOD", description = "day, week, month (default) or year.")
        @Nullable
        String period;

        @Option(
                names = "--rollover",
                paramLabel = "N",
                description = "Most unused allowance tokens carried into the next period (default 0).")
        @Nullable
        Long rollover;

        @Option(
                names = "--monthly-tokens",
                paramLabel = "N",
                description = "Same as --allowance N --period month, as in the first API.")
        @Nullable
        Long monthlyTokens;

        @Option(
                names = "--rate-limit-per-minute",
                paramLabel = "N",
                description = "Requests per minute per caller key.")
        @Nullable
        Long rateLimitPerMinute;

        RequestBody addTo(RequestBody body) {
            boolean monthly = monthlyTokens != null;
            return body.with("description", description)
                    .with("allowance", monthly ? monthlyTokens : allowance)
                    .with("period", monthly ? "month" : period)
                    .with("rollover", rollover)
                    .with("rateLimitPerMinute", rateLimitPerMinute);
        }

        void requireOneAllowance(OperatorOptions options) {
            if (monthlyTokens != null && (allowance != null || period != null)) {
                throw options.usageError("Give --monthly-tokens or --allowance/--period, not both");
            }
        }
    }

    @Command(name = "list", description = "List every plan.")
    int list(@Mixin OperatorOptions options) {
        return options.run(client -> client.get("/admin/plans"), PLANS);
    }

    @Command(name = "get", description = "Show one plan.")
    int get(@Mixin OperatorOptions options, @Parameters(paramLabel = "PLAN_ID") String planId) {
        return options.run(client -> client.get(path(planId)), Output.record());
    }

    @Command(name = "create", description = "Create a plan; its id is a slug such as pro.")
    int create(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "PLAN_ID") String planId,
            @Option(names = "--name", required = true, paramLabel = "NAME") String name,
            @Mixin PlanFields fields) {
        fields.requireOneAllowance(options);
        RequestBody body = fields.addTo(new RequestBody().with("id", planId).with("name", name));
        return options.run(client -> client.post("/admin/plans", body), Output.record());
    }

    @Command(
            name = "update",
            description = "Change some fields of a plan. It reads the plan and writes it back with your changes;"
                    + " the fields you leave out keep their values.")
    int update(
            @Mixin OperatorOptions options,
            @Parameters(paramLabel = "PLAN_ID") String planId,
            @Option(names = "--name", paramLabel = "NAME") String name,
            @Mixin PlanFields fields) {
        fields.requireOneAllowance(options);
        RequestBody changes = fields.addTo(new RequestBody().with("name", name));
        if (changes.isEmpty()) {
            throw options.usageError("Nothing to change: give --name, --description, --allowance, --period,"
                    + " --rollover, --monthly-tokens or --rate-limit-per-minute");
        }
        return options.run(
                client -> {
                    JsonNode current = client.get(path(planId)).json();
                    RequestBody body = new RequestBody()
                            .with("name", current.path("name").asText())
                            .with("description", current.path("description").asText())
                            .with("allowance", number(current.path("allowance")))
                            .with("period", current.path("period").asText())
                            .with("rollover", number(current.path("rollover")))
                            .with("rateLimitPerMinute", number(current.path("rateLimitPerMinute")))
                            .with("sla", current.path("sla").isObject() ? current.path("sla") : null);
                    changes.fields().forEach(body::with);
                    return client.put(path(planId), body);
                },
                Output.record());
    }

    @Command(
            name = "sla-preview",
            description = "List the plan's accounts that would get an SLA credit if their periods ended now.")
    int slaPreview(@Mixin OperatorOptions options, @Parameters(paramLabel = "PLAN_ID") String planId) {
        return options.run(
                client -> client.get("/admin/sla/preview?planId=" + OperatorClient.segment(planId)), Output.record());
    }

    private static @Nullable Long number(JsonNode value) {
        return value.isIntegralNumber() ? value.longValue() : null;
    }

    private static String path(String planId) {
        return "/admin/plans/" + OperatorClient.segment(planId);
    }
}
