package dev.pulseledger.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LowBalanceAdminTest {
    private static TestNode node;

    @BeforeAll
    static void startNode() {
        node = TestNode.start(TestStore.SQLITE.newDatabaseUrl());
    }

    @AfterAll
    static void stopNode() {
        node.close();
    }

    @Test
    void lowBalanceThresholdsAreSetPerPlanAndOverriddenPerAccount() {
        String accountId = new Fixtures(node).account(100);
        String path = "/admin/accounts/" + accountId + "/low-balance-threshold";
        Reply none = node.admin().get(path);
        assertThat(none.status()).isEqualTo(200);
        assertThat(none.json().path("effectiveLowBalanceThreshold").isNull()).isTrue();

        Reply plan = node.admin().put("/admin/plans/free/low-balance-threshold", Map.of("lowBalanceThreshold", 50));
        assertThat(plan.json().path("lowBalanceThreshold").asLong()).isEqualTo(50);
        assertThat(node.admin()
                        .get(path)
                        .json()
                        .path("effectiveLowBalanceThreshold")
                        .asLong())
                .isEqualTo(50);

        JsonNode own = node.admin().put(path, Map.of("lowBalanceThreshold", 20)).json();
        assertThat(own.path("lowBalanceThreshold").asLong()).isEqualTo(20);
        assertThat(own.path("planLowBalanceThreshold").asLong()).isEqualTo(50);
        assertThat(own.path("effectiveLowBalanceThreshold").asLong()).isEqualTo(20);

        Map<String, Object> clear = new HashMap<>();
        clear.put("lowBalanceThreshold", null);
        assertThat(node.admin()
                        .put(path, clear)
                        .json()
                        .path("effectiveLowBalanceThreshold")
                        .asLong())
                .isEqualTo(50);
        assertThat(node.admin()
                        .put("/admin/plans/free/low-balance-threshold", clear)
                        .json()
                        .path("lowBalanceThreshold")
                        .isNull())
                .isTrue();
    }

    @Test
    void badThresholdsAndUnknownOwnersAreRefused() {
        assertThat(node.admin()
                        .put("/admin/plans/free/low-balance-threshold", Map.of("lowBalanceThreshold", 0))
                        .status())
                .isEqualTo(400);
        assertThat(node.admin()
                        .put("/admin/plans/free/low-balance-threshold", Map.of("lowBalanceThreshold", "10"))
                        .status())
                .isEqualTo(400);
        assertThat(node.admin()
                        .put("/admin/plans/free/low-balance-threshold", Map.of())
                        .status())
                .isEqualTo(400);
        assertThat(node.admin()
                        .put("/admin/plans/nope/low-balance-threshold", Map.of("lowBalanceThreshold", 10))
                        .code())
                .isEqualTo("plan_not_found");
        assertThat(node.admin()
                        .get("/admin/accounts/acct_nope/low-balance-threshold")
                        .code())
                .isEqualTo("account_not_found");
    }
}
