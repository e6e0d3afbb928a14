package dev.pulseledger.operators;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.Application;
import dev.pulseledger.ServeCommand;
import dev.pulseledger.keys.Secrets;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.TestStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The upgrade to operators (V230) on a database of the previous release: the admin key generated on its
 * first start keeps working and now belongs to the first owner, who is named in the audit log.
 */
class OperatorMigrationTest {
    private static final String OLD_KEY = "pl_admin_0123456789abcdefghijABCDEFGHIJ01";

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void theAdminKeyOfAnExistingDeploymentBecomesTheFirstOwners(TestStore store) throws SQLException {
        // The previous release's schema: its last migration on each store.
        String url = store.newDatabaseUrlMigratedTo(store == TestStore.SQLITE ? "190" : "181");
        try (Connection connection = DriverManager.getConnection(url);
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO admin_keys (key_hash, created_at, prefix) VALUES (?, ?, ?)")) {
            insert.setString(1, Secrets.sha256Hex(OLD_KEY));
            insert.setLong(2, 1767225600000L);
            insert.setString(3, "pl_admin_0123");
            insert.executeUpdate();
        }

        ByteArrayOutputStream console = new ByteArrayOutputStream();
        try (Application node = Application.start(
                ServeCommand.parseConfig("--host", "127.0.0.1", "--port", "0", "--database-url", url),
                new PrintStream(console, true, StandardCharsets.UTF_8))) {
            assertThat(console.toString(StandardCharsets.UTF_8))
                    .as(
                            "no new key is generated for a deployment that has one (the banner names the old key's prefix only)")
                    .doesNotContainPattern("pl_admin_[0-9A-Za-z]{16,}");
            Api old = new Api("http://127.0.0.1:" + node.port(), OLD_KEY);
            JsonNode operators = old.get("/admin/operators").json().path("data");
            assertThat(operators).hasSize(1);
            JsonNode owner = operators.get(0);
            assertThat(owner.path("role").asText()).isEqualTo("owner");
            String ownerId = owner.path("id").asText();
            JsonNode keys =
                    old.get("/admin/operators/" + ownerId + "/keys").json().path("data");
            assertThat(keys).hasSize(1);
            assertThat(keys.get(0).path("prefix").asText()).isEqualTo("pl_admin_0123…");

            assertThat(old.post("/admin/plans", Map.of("id", "pro", "name", "Pro"))
                            .status())
                    .isEqualTo(201);
            JsonNode entry = old.get("/admin/audit").json().path("data").get(0);
            assertThat(entry.path("operatorId").asText()).isEqualTo(ownerId);
            assertThat(entry.path("credential").asText())
                    .isEqualTo(keys.get(0).path("id").asText());
        }
    }
}
