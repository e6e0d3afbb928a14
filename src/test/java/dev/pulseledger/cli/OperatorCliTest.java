package dev.pulseledger.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.Main;
import dev.pulseledger.http.Json;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The operator CLI, run in-process against a real node, as an operator would use it. */
class OperatorCliTest {
    private static TestNode node;

    /** What one command run printed and returned. */
    record Run(int exitCode, String out, String err) {
        JsonNode json() {
            try {
                return Json.mapper().readTree(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @BeforeAll
    static void startNode() {
        node = TestNode.start(TestStore.SQLITE.newDatabaseUrl());
    }

    @AfterAll
    static void stopNode() {
        node.close();
    }

    /** Runs {@code pulseledger <args>} against the test node with the admin key. */
    private static Run cli(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--url", node.baseUrl(), "--admin-key", TestNode.ADMIN_KEY));
        return bare(all.toArray(String[]::new));
    }

    /** Runs {@code pulseledger <args>} exactly as given. */
    private static Run bare(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }

    private static Run ok(String... args) {
        Run run = cli(args);
        assertThat(run.exitCode()).as(String.join(" ", args) + "\n" + run.err()).isZero();
        assertThat(run.err()).isEmpty();
        return run;
    }

    private static String newAccount(String name, long balance) {
        return ok("accounts", "create", "--name", name, "--balance", Long.toString(balance), "--json")
                .json()
                .get("id")
                .asText();
    }

    @Test
    void aPlanIsCreatedListedAndUpdatedKeepingTheFieldsLeftOut() {
        Run created = ok("plans", "create", "gold", "--name", "Gold", "--monthly-tokens", "5000");
        assertThat(created.out()).contains("id:").contains("gold").contains("5000");

        Run listed = ok("plans", "list");
        assertThat(listed.out())
                .contains("ALLOWANCE")
                .contains("PERIOD")
                .contains("gold")
                .contains("free");

        ok("plans", "update", "gold", "--rate-limit-per-minute", "60");
        JsonNode plan = ok("plans", "get", "gold", "--json").json();
        assertThat(plan.get("name").asText()).isEqualTo("Gold");
        assertThat(plan.get("monthlyTokens").asLong()).isEqualTo(5000);
        assertThat(plan.get("rateLimitPerMinute").asLong()).isEqualTo(60);

        ok("plans", "update", "gold", "--allowance", "70", "--period", "week", "--rollover", "10");
        JsonNode weekly = ok("plans", "get", "gold", "--json").json();
        assertThat(weekly.get("allowance").asLong()).isEqualTo(70);
        assertThat(weekly.get("period").asText()).isEqualTo("week");
        assertThat(weekly.get("rollover").asLong()).isEqualTo(10);
        assertThat(weekly.get("rateLimitPerMinute").asLong()).isEqualTo(60);
    }

    @Test
    void aPlansSlaSurvivesAnUpdateItsPreviewIsListedAndAGrantIsRevokedOnce() {
        node.admin().put("/admin/services/cli-api", java.util.Map.of("name", "API", "status", "operational"));
        node.admin()
                .post(
                        "/admin/plans",
                        java.util.Map.of(
                                "id",
                                "sla-cli",
                                "name",
                                "SLA",
                                "sla",
                                java.util.Map.of(
                                        "services",
                                        List.of("cli-api"),
                                        "tiers",
                                        List.of(java.util.Map.of("below", 0.99, "creditPercent", 10)))));

        ok("plans", "update", "sla-cli", "--rate-limit-per-minute", "60");

        assertThat(ok("plans", "get", "sla-cli", "--json")
                        .json()
                        .path("sla")
                        .path("services")
                        .get(0)
                        .asText())
                .isEqualTo("cli-api");
        assertThat(ok("plans", "sla-preview", "sla-cli", "--json")
                        .json()
                        .path("total")
                        .asLong())
                .isZero();
        String accountId = newAccount("revoked", 300);
        String grantId = ok("accounts", "ledger", accountId, "--json")
                .json()
                .path("data")
                .get(0)
                .path("grantId")
                .asText();
        assertThat(ok("accounts", "revoke-grant", accountId, grantId, "--json")
                        .json()
                        .path("revoked")
                        .asLong())
                .isEqualTo(300);
        assertThat(cli("accounts", "revoke-grant", accountId, grantId).exitCode())
                .isNotZero();

        assertThat(ok("accounts", "plan-change", accountId, "sla-cli", "--when", "period_end", "--json")
                        .json()
                        .path("pendingChange")
                        .path("planId")
                        .asText())
                .isEqualTo("sla-cli");
        assertThat(ok("accounts", "cancel-plan-change", accountId, "--json")
                        .json()
                        .path("cancelled")
                        .path("planId")
                        .asText())
                .isEqualTo("sla-cli");
        assertThat(cli("accounts", "cancel-plan-change", accountId).exitCode()).isNotZero();
        assertThat(ok("accounts", "plan-change", accountId, "sla-cli", "--when", "now", "--json")
                        .json()
                        .path("planId")
                        .asText())
                .isEqualTo("sla-cli");
        assertThat(cli("accounts", "plan-change", accountId, "sla-cli", "--when", "later")
                        .exitCode())
                .isNotZero();
    }

    @Test
    void anAccountIsCreatedCreditedMovedToAPlanAndItsLedgerListed() {
        ok("plans", "create", "silver", "--name", "Silver");
        String accountId = newAccount("Acme", 100);

        JsonNode credit = ok("accounts", "credit", accountId, "250", "--reason", "top-up", "--json")
                .json();
        assertThat(credit.get("balance").asLong()).isEqualTo(350);
        JsonNode expiring = ok("accounts", "credit", accountId, "5", "--expires-at", "2099-01-01T00:00:00Z", "--json")
                .json();
        assertThat(expiring.get("expiresAt").asText()).isEqualTo("2099-01-01T00:00:00Z");
        assertThat(expiring.get("balance").asLong()).isEqualTo(355);

        assertThat(ok("accounts", "set-plan", accountId, "silver").out())
                .contains("planId:")
                .contains("silver");
        JsonNode account = ok("accounts", "get", accountId, "--json").json();
        assertThat(account.get("planId").asText()).isEqualTo("silver");
        assertThat(account.get("balance").asLong()).isEqualTo(355);

        Run ledger = ok("accounts", "ledger", accountId);
        assertThat(ledger.out()).contains("BALANCE AFTER").contains("top-up").contains("opening balance");
        assertThat(ok("accounts", "list", "--limit", "100").out()).contains(accountId);
    }

    @Test
    void anAccountsReservationsAreListedByStatus() {
        String accountId = newAccount("Holder", 500);
        String key = ok("keys", "create", accountId, "--json").json().get("key").asText();
        Api caller = node.caller(key);
        String held = caller.post("/api/tokens/reservations", java.util.Map.of("amount", 40))
                .json()
                .get("reservationId")
                .asText();
        String released = caller.post("/api/tokens/reservations", java.util.Map.of("amount", 60))
                .json()
                .get("reservationId")
                .asText();
        caller.post("/api/tokens/reservations/" + released + "/release");

        Run all = ok("reservations", "list", accountId);
        assertThat(all.out()).contains("EXPIRES").contains(held).contains(released);
        Run onlyHeld = ok("reservations", "list", accountId, "--status", "held", "--limit", "10");
        assertThat(onlyHeld.out()).contains(held).doesNotContain(released);
        assertThat(cli("reservations", "list", accountId, "--status", "open").exitCode())
                .isNotZero();
    }

    @Test
    void accountsAreListedPageByPageWithTheCursorPrinted() {
        newAccount("Paged one", 0);
        newAccount("Paged two", 0);
        Run first = ok("accounts", "list", "--limit", "1");
        assertThat(first.out()).contains("More: repeat with --cursor ");
        String cursor = first.out()
                .lines()
                .filter(line -> line.startsWith("More:"))
                .findFirst()
                .orElseThrow()
                .replaceFirst(".*--cursor ", "");
        Run second = ok("accounts", "list", "--limit", "1", "--cursor", cursor);
        assertThat(second.out().lines().skip(1).findFirst())
                .isNotEqualTo(first.out().lines().skip(1).findFirst());
    }

    @Test
    void aKeyIsShownOnceWorksForItsCallerAndStopsWhenRevoked() {
        String accountId = newAccount("Keyholder", 500);
        Run created = ok("keys", "create", accountId, "--name", "production");
        String key = created.out()
                .lines()
                .filter(line -> line.startsWith("key:"))
                .findFirst()
                .orElseThrow()
                .replaceFirst("key:\\s+", "");
        assertThat(key).startsWith("pl_");
        assertThat(created.out()).contains("shown only this once");
        assertThat(node.caller(key)
                        .get("/api/tokens/balance")
                        .json()
                        .get("balance")
                        .asLong())
                .isEqualTo(500);

        Run listed = ok("keys", "list", accountId);
        assertThat(listed.out()).contains("production").doesNotContain(key);
        String keyId = ok("keys", "list", accountId, "--json")
                .json()
                .get("data")
                .get(0)
                .get("id")
                .asText();

        assertThat(ok("keys", "revoke", keyId).out()).contains("Revoked " + keyId);
        assertThat(node.caller(key).get("/api/tokens/balance").status()).isEqualTo(401);
    }

    @Test
    void aKeysBudgetsAreSetAtCreationReplacedAndClearedAndTheCallerIsHeldToThem() {
        String accountId = newAccount("Budgeted", 500);
        String key = ok("keys", "create", accountId, "--budget", "default:day:50", "--json")
                .json()
                .get("key")
                .asText();
        assertThat(ok("keys", "list", accountId).out()).contains("default:day:50");
        assertThat(node.caller(key).post("/api/tokens/spend/51").code()).isEqualTo("key_budget_exceeded");
        String keyId =
                ok("keys", "list", accountId, "--json").json().at("/data/0/id").asText();

        Run replaced =
                ok("keys", "budgets", accountId, keyId, "--budget", "default:week:60", "--budget", "default:day:55");
        assertThat(replaced.out()).contains("week");
        assertThat(node.caller(key).post("/api/tokens/spend/51").status()).isEqualTo(201);
        assertThat(cli("keys", "budgets", accountId, keyId, "--budget", "default:year:5")
                        .exitCode())
                .isEqualTo(ExitCodes.REFUSED);
        assertThat(cli("keys", "budgets", accountId, keyId, "--budget", "default-day-5")
                        .exitCode())
                .isEqualTo(ExitCodes.USAGE);
        assertThat(cli("keys", "budgets", accountId, keyId).exitCode()).isEqualTo(ExitCodes.USAGE);
        ok("keys", "budgets", accountId, keyId, "--clear");
        assertThat(ok("keys", "list", accountId).out()).doesNotContain("default:day");
        assertThat(node.caller(key).post("/api/tokens/spend/100").status()).isEqualTo(201);
    }

    @Test
    void aSuspendedAccountsCallerIsRefusedUntilItIsActiveAgain() {
        String accountId = newAccount("Suspect", 10);
        String key = ok("keys", "create", accountId, "--json").json().get("key").asText();

        assertThat(ok("accounts", "set-status", accountId, "suspended").out()).contains("suspended");
        assertThat(node.caller(key).get("/api/tokens/balance").code()).isEqualTo("account_suspended");
        ok("accounts", "set-status", accountId, "active");
        assertThat(node.caller(key).get("/api/tokens/balance").status()).isEqualTo(200);
    }

    @Test
    void aServiceStatusSetByTheCliShowsInThePulse() {
        Run created = ok("services", "put", "cli-api", "--name", "CLI API", "--spotlighted", "--position", "3");
        assertThat(created.out()).contains("spotlighted:").contains("true");
        ok("services", "set-status", "cli-api", "major_outage");
        ok("services", "update", "cli-api", "--description", "Set from the terminal");

        Run listed = ok("services", "list");
        assertThat(listed.out()).contains("cli-api").contains("major_outage");
        String key = ok("keys", "create", newAccount("Watcher", 0), "--json")
                .json()
                .get("key")
                .asText();
        JsonNode service =
                node.caller(key).get("/api/pulse").json().get("services").get(0);
        assertThat(service.get("id").asText()).isEqualTo("cli-api");
        assertThat(service.get("status").asText()).isEqualTo("major_outage");
        assertThat(service.get("description").asText()).isEqualTo("Set from the terminal");

        assertThat(ok("services", "delete", "cli-api").out()).contains("Deleted cli-api.");
        assertThat(cli("services", "get", "cli-api").exitCode()).isEqualTo(ExitCodes.REFUSED);
    }

    @Test
    void aServiceGroupIsCreatedJoinedAndLeftFromTheTerminal() {
        ok("service-groups", "create", "cli-core", "--name", "CLI core", "--position", "4");
        ok("services", "put", "cli-grouped", "--name", "Grouped", "--group", "cli-core");
        assertThat(ok("service-groups", "list").out()).contains("cli-core").contains("CLI core");
        assertThat(ok("services", "get", "cli-grouped").out()).contains("cli-core");
        ok("service-groups", "update", "cli-core", "--name", "Core, renamed");
        assertThat(ok("service-groups", "get", "cli-core").out()).contains("Core, renamed");
        assertThat(ok("services", "update", "cli-grouped", "--ungroup", "--json")
                        .json()
                        .get("groupId")
                        .isNull())
                .isTrue();
        assertThat(ok("service-groups", "delete", "cli-core").out()).contains("Deleted cli-core.");
        assertThat(cli("service-groups", "get", "cli-core").exitCode()).isEqualTo(ExitCodes.REFUSED);
        ok("services", "delete", "cli-grouped");
    }

    @Test
    void statusSubscribersAreAddedListedSearchedExportedAndDeletedFromTheTerminal() throws IOException {
        ok("services", "put", "cli-notified", "--name", "Notified");
        JsonNode added = ok(
                        "status-subscribers",
                        "add-webhook",
                        "https://hooks.example.com/CLI-Status",
                        "--service",
                        "cli-notified",
                        "--json")
                .json();
        String id = added.get("id").asText();
        assertThat(added.get("secret").asText()).startsWith("whsec_");
        String listed = ok("status-subscribers", "list").out();
        assertThat(listed)
                .contains(id, "webhook", "https://hooks.example.com/CLI-Status", "confirmed")
                .contains("Counts: ")
                .contains("\"cli-notified\":1");
        // The search finds a webhook by part of its URL, in any case.
        assertThat(ok("status-subscribers", "list", "--search", "cli-status").out())
                .contains(id);
        assertThat(ok("status-subscribers", "list", "--search", "elsewhere.example")
                        .out())
                .startsWith("(none)");
        String csv = ok("status-subscribers", "export").out();
        assertThat(csv)
                .startsWith("id,type,email,url,services,status,created_at,confirmed_at\r\n")
                .contains(id + ",webhook,,https://hooks.example.com/CLI-Status,cli-notified,confirmed,");
        Path file = Files.createTempDirectory("cli-export").resolve("subscribers.csv");
        assertThat(ok("status-subscribers", "export", "--output", file.toString())
                        .out())
                .isEqualTo("Wrote " + file + ".\n");
        assertThat(Files.readString(file)).isEqualTo(csv);
        if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .as("an export of personal data is its owner's alone")
                    .isEqualTo("rw-------");
        }
        assertThat(ok("status-subscribers", "get", id).out()).contains("cli-notified");
        assertThat(ok("status-subscribers", "delete", id).out()).contains("Deleted " + id + ".");
        assertThat(cli("status-subscribers", "get", id).exitCode()).isEqualTo(ExitCodes.REFUSED);
        assertThat(ok("status-subscribers", "list", "--search", "cli-status").out())
                .startsWith("(none)");
        assertThat(ok("status-subscribers", "list").out()).doesNotContain(id);
        Run refused = bare("status-subscribers", "export", "--url", node.baseUrl(), "--admin-key", "pl_admin_wrong");
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.REFUSED);
        assertThat(refused.out()).isEmpty();
        ok("services", "delete", "cli-notified");
    }

    @Test
    void incidentsAndMaintenanceAreRunFromTheTerminalAndShowInTheHistory() {
        ok("services", "put", "cli-db", "--name", "Database");
        String incident = ok(
                        "incidents",
                        "open",
                        "--title",
                        "Slow queries",
                        "--impact",
                        "minor",
                        "--message",
                        "Looking into it.",
                        "--service",
                        "cli-db=degraded_performance",
                        "--json")
                .json()
                .get("id")
                .asText();
        ok(
                "incidents",
                "update",
                incident,
                "--status",
                "resolved",
                "--message",
                "Fixed.",
                "--service",
                "cli-db=operational");
        ok("incidents", "edit", incident, "--title", "Slow queries on the primary");
        assertThat(ok("incidents", "list").out()).contains(incident).contains("resolved");
        assertThat(ok("incidents", "get", incident).out()).contains("Slow queries on the primary");
        Run history = ok("services", "history", "cli-db");
        assertThat(history.out()).contains("degraded_performance").contains(incident);

        String window = ok(
                        "maintenances",
                        "schedule",
                        "--title",
                        "Upgrade",
                        "--service",
                        "cli-db",
                        "--starts-at",
                        "2099-01-01T02:00:00Z",
                        "--ends-at",
                        "2099-01-01T03:00:00Z",
                        "--json")
                .json()
                .get("id")
                .asText();
        ok("maintenances", "edit", window, "--ends-at", "2099-01-01T04:00:00Z");
        assertThat(ok("maintenances", "list").out()).contains(window).contains("2099-01-01T04:00:00Z");
        assertThat(ok("maintenances", "delete", window).out()).contains("Deleted " + window + ".");
        assertThat(ok("incidents", "delete", incident).out()).contains("Deleted " + incident + ".");
        assertThat(cli("maintenances", "get", window).exitCode()).isEqualTo(ExitCodes.REFUSED);
        assertThat(cli("incidents", "open", "--title", "t", "--message", "m", "--service", "cli-db=down")
                        .exitCode())
                .isEqualTo(ExitCodes.REFUSED);
    }

    @Test
    void anOperatorIsAddedGivenAKeyWhoseRoleHoldsAndDisabledFromTheTerminal() {
        String id = ok(
                        "operators",
                        "create",
                        "--name",
                        "Cli Viewer",
                        "--email",
                        "cli-viewer@example.com",
                        "--role",
                        "viewer",
                        "--json")
                .json()
                .path("id")
                .asText();
        assertThat(ok("operators", "list").out()).contains(id).contains("viewer");
        Run issued = ok("operators", "create-key", id, "--name", "terminal");
        assertThat(issued.out()).contains("shown only this once");
        String key = issued.out()
                .lines()
                .flatMap(line -> Stream.of(line.split("\\s+")))
                .filter(word -> word.startsWith("pl_admin_") && word.length() > 20)
                .findFirst()
                .orElseThrow();
        Api viewer = new Api(node.baseUrl(), key);
        assertThat(viewer.get("/admin/plans").status()).isEqualTo(200);
        assertThat(viewer.post("/admin/plans", java.util.Map.of("id", "v", "name", "V"))
                        .code())
                .isEqualTo("forbidden_for_role");
        ok("operators", "disable", id);
        assertThat(viewer.get("/admin/plans").status()).isEqualTo(401);
        assertThat(ok("operators", "audit", "--operator", id).out()).doesNotContain(key);
    }

    @Test
    void anUnknownAccountIsARefusalWithTheProblemDetailOnStderr() {
        Run run = cli("accounts", "get", "acct_nope");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("No account has this id.").contains("account_not_found");
    }

    @Test
    void anInvalidValueIsARefusalNamingTheField() {
        Run run = cli("accounts", "credit", newAccount("Zero", 0), "0");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
        assertThat(run.err()).contains("'amount'");
    }

    @Test
    void aWrongAdminKeyIsARefusal() {
        Run run = bare("plans", "list", "--url", node.baseUrl(), "--admin-key", "not-the-admin-key");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
        assertThat(run.err()).contains("invalid_api_key");
    }

    @Test
    void anUnreachableServiceIsAnOutage() {
        Run run = bare("plans", "list", "--url", "http://127.0.0.1:" + freePort(), "--admin-key", "any");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(run.err()).startsWith("pulseledger: cannot reach http://127.0.0.1:");
    }

    @Test
    void aFailureOfTheServiceIsAnOutage() throws SQLException {
        try (TestNode postgres =
                        TestNode.start(TestStore.POSTGRESQL.newDatabaseUrl(), "--db-statement-timeout-ms", "200");
                Connection locker = DriverManager.getConnection(postgres.databaseUrl())) {
            locker.setAutoCommit(false);
            try (Statement statement = locker.createStatement()) {
                statement.execute("LOCK TABLE plans IN ACCESS EXCLUSIVE MODE");
            }
            Run run = bare("plans", "list", "--url", postgres.baseUrl(), "--admin-key", TestNode.ADMIN_KEY);
            locker.rollback();
            assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.UNAVAILABLE);
            assertThat(run.err()).contains("database_unavailable").contains("HTTP 503");
        }
    }

    @Test
    void commandLineMistakesAreUsageErrors() {
        assertThat(cli("plans").exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli("plans", "create", "gold").exitCode()).as("no --name").isEqualTo(ExitCodes.USAGE);
        assertThat(cli("accounts", "credit", "acct_x", "lots").exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli("services", "update", "api").exitCode())
                .as("nothing to change")
                .isEqualTo(ExitCodes.USAGE);
        assertThat(bare("plans", "list", "--url", "ftp://example.com", "--admin-key", "k")
                        .exitCode())
                .isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void noAdminKeyIsAUsageError() {
        assumeTrue(System.getenv("PULSELEDGER_ADMIN_KEY") == null, "PULSELEDGER_ADMIN_KEY is set here");
        Run run = bare("plans", "list", "--url", node.baseUrl());
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("PULSELEDGER_ADMIN_KEY");
    }

    @Test
    void theAdminKeyIsNeverPrinted() {
        List<Run> runs = Stream.of(
                        new String[] {"plans", "list"},
                        new String[] {"plans", "list", "--json"},
                        new String[] {"accounts", "get", "acct_nope"},
                        new String[] {"accounts", "create", "--help"},
                        new String[] {"keys", "create"},
                        new String[] {"services", "set-status", "api"})
                .map(OperatorCliTest::cli)
                .toList();
        for (Run run : runs) {
            assertThat(run.out() + run.err()).doesNotContain(TestNode.ADMIN_KEY);
        }
        assertThat(runs.get(3).out()).contains("--admin-key").contains("Exit codes:");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
