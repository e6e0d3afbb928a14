package dev.pulseledger.operators;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.ConsoleClient;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Disabling an operator on one node ends their admin keys and console sessions on every node within 5
 * seconds (CONTRACT §17), carried by the access change feed that carries key revocations.
 */
class DisableAcrossNodesTest {
    private static final int NODES = 3;
    private static final Duration BOUND = Duration.ofSeconds(5);
    private static final String PASSWORD = "correct horse battery staple";

    @Test
    void aDisabledOperatorsKeyAndSessionAreRefusedOnAllThreeNodesWithinFiveSeconds() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        List<TestNode> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                nodes.add(TestNode.start(url, "--db-pool-size", "4"));
            }
            Api owner = nodes.get(0).admin();
            String id = owner.post(
                            "/admin/operators",
                            Map.of(
                                    "name",
                                    "Vic Viewer",
                                    "email",
                                    "vic@example.com",
                                    "role",
                                    "viewer",
                                    "password",
                                    PASSWORD))
                    .json()
                    .path("id")
                    .asText();
            String key = owner.post("/admin/operators/" + id + "/keys", Map.of())
                    .json()
                    .path("key")
                    .asText();
            ConsoleClient browser = new ConsoleClient(nodes.get(0).baseUrl());
            assertThat(browser.signIn("vic@example.com", PASSWORD, "").statusCode())
                    .isEqualTo(303);
            for (TestNode node : nodes) {
                Waiting.until(
                        "the new key works on " + node.baseUrl(),
                        () -> node.caller(key).get("/admin/plans").status() == 200);
                assertThat(browser.at(node.baseUrl()).get("/console").statusCode())
                        .isEqualTo(200);
            }

            assertThat(nodes.get(1)
                            .admin()
                            .patch("/admin/operators/" + id, Map.of("disabled", true))
                            .status())
                    .isEqualTo(200);
            long disabledAt = System.nanoTime();
            for (TestNode node : nodes) {
                assertThat(Waiting.within(
                                BOUND.minusNanos(System.nanoTime() - disabledAt),
                                () -> node.caller(key).get("/admin/plans").status() == 401))
                        .as("the key is refused on %s within 5 s", node.baseUrl())
                        .isTrue();
                assertThat(Waiting.within(
                                BOUND.minusNanos(System.nanoTime() - disabledAt),
                                () -> browser.at(node.baseUrl()).get("/console").statusCode() == 303))
                        .as("the session is over on %s within 5 s", node.baseUrl())
                        .isTrue();
            }
            assertThat(new ConsoleClient(nodes.get(2).baseUrl())
                            .signIn("vic@example.com", PASSWORD, "")
                            .statusCode())
                    .as("a disabled operator cannot sign in again")
                    .isEqualTo(401);
        } finally {
            nodes.forEach(TestNode::close);
        }
    }
}
