package dev.pulseledger.operators;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.ConsoleClient;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Console sign-in limits hold across nodes: guesses spread over three nodes count as if made on one. */
class SignInLimitsAcrossNodesTest {
    private static final String PASSWORD = "correct horse battery staple";

    @Test
    void anAddressAndAnAccountAreLimitedOnEveryNodeByTheFailuresOnAll() {
        TestClock clock = new TestClock(Instant.parse("2026-11-21T10:00:10Z"));
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        List<TestNode> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(TestNode.start(TestNode.config(url, "--trusted-proxies", "127.0.0.0/8,::1"), clock));
            }
            assertThat(nodes.getFirst()
                            .admin()
                            .post(
                                    "/admin/operators",
                                    Map.of(
                                            "name", "Oona Owner",
                                            "email", "oona@example.com",
                                            "role", "owner",
                                            "password", PASSWORD))
                            .status())
                    .isEqualTo(201);

            for (int i = 0; i < SignInLimiter.ADDRESS_FAILURES; i++) {
                assertThat(from(nodes.get(i % 3), "203.0.113.50")
                                .signIn("user" + i + "@example.com", "guess number " + i + "!", "")
                                .statusCode())
                        .isEqualTo(401);
            }
            for (TestNode node : nodes) {
                assertThat(from(node, "203.0.113.50")
                                .signIn("oona@example.com", PASSWORD, "")
                                .statusCode())
                        .as("the address is held on every node")
                        .isEqualTo(429);
            }

            for (int i = 0; i < SignInLimiter.FREE_FAILURES; i++) {
                assertThat(from(nodes.get(i % 3), "198.51.100." + i)
                                .signIn("oona@example.com", "guess number " + i + "!", "")
                                .statusCode())
                        .isEqualTo(401);
            }
            assertThat(from(nodes.get(2), "192.0.2.77")
                            .signIn("oona@example.com", PASSWORD, "")
                            .statusCode())
                    .as("the account waits on a node that saw none of its failures")
                    .isEqualTo(429);
            clock.advance(SignInLimiter.MAX_ACCOUNT_DELAY);
            assertThat(from(nodes.get(1), "192.0.2.77")
                            .signIn("oona@example.com", PASSWORD, "")
                            .statusCode())
                    .isEqualTo(303);
        } finally {
            nodes.forEach(TestNode::close);
        }
    }

    private static ConsoleClient from(TestNode node, String address) {
        return new ConsoleClient(node.baseUrl()).withHeader("X-Forwarded-For", address);
    }
}
