package dev.pulseledger.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.http.RouteTable;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.ConsoleClient;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/** The route table's access rules, for every route it holds: /api needs a caller key, /admin an admin key, /console a session. */
class EveryRouteChecksItsKeyTest {
    /** The route table checks the caller before any /api handler runs: no key 401, an admin key 403. */
    @Test
    void everyRegisteredApiRouteRefusesNoKeyWith401AndAnAdminKeyWith403() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            assertEveryRouteRefuses(node, RouteTable.API_PREFIX, 15, node.admin(), "an admin key");
        }
    }

    @Test
    void everyRegisteredAdminRouteRefusesNoKeyWith401AndACallerKeyWith403() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(10);
            assertEveryRouteRefuses(node, RouteTable.ADMIN_PREFIX, 20, node.caller(caller.key()), "a caller key");
        }
    }

    /** Every route under {@code prefix} answers 401 {@code missing_api_key} without a key, and 403 to {@code wrongKey}. */
    private static void assertEveryRouteRefuses(
            TestNode node, String prefix, int atLeast, Api wrongKey, String wrongKeyName) {
        List<RouteTable.Route> routes = node.application().routes().stream()
                .filter(route -> route.pathTemplate().startsWith(prefix))
                .toList();
        assertThat(routes).as("%s routes found in the route table", prefix).hasSizeGreaterThan(atLeast);
        SoftAssertions softly = new SoftAssertions();
        for (RouteTable.Route route : routes) {
            String path = route.pathTemplate().replaceAll("\\{[^/]+}", "x1");
            Reply anonymous = send(node.anonymous(), route.method(), path);
            softly.assertThat(anonymous.status())
                    .as("%s %s without a key", route.method(), path)
                    .isEqualTo(401);
            if (!route.method().equals("HEAD")) {
                softly.assertThat(anonymous.code())
                        .as("%s %s", route.method(), path)
                        .isEqualTo("missing_api_key");
            }
            softly.assertThat(send(wrongKey, route.method(), path).status())
                    .as("%s %s with %s", route.method(), path, wrongKeyName)
                    .isEqualTo(403);
        }
        softly.assertAll();
    }

    /**
     * The console's routes pass its gate: without a session a page sends the browser to sign in and a
     * change gets 401, whatever key the request carries; a signed-in change without the page's CSRF
     * token gets 403. Only sign-in and the assets are open.
     */
    @Test
    void everyRegisteredConsoleRouteButSignInAndAssetsNeedsASession() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(10);
            Set<String> open = Set.of("/console/sign-in", "/console/assets/{asset}");
            List<RouteTable.Route> consoleRoutes = node.application().routes().stream()
                    .filter(route -> route.pathTemplate().equals(RouteTable.CONSOLE_PREFIX)
                            || route.pathTemplate().startsWith(RouteTable.CONSOLE_PREFIX + "/"))
                    .filter(route -> !open.contains(route.pathTemplate()))
                    .toList();
            assertThat(consoleRoutes)
                    .as("console routes found in the route table")
                    .hasSizeGreaterThan(10);
            ConsoleClient signedIn = new ConsoleClient(node.baseUrl());
            signedIn.signIn(TestNode.ADMIN_KEY);

            SoftAssertions softly = new SoftAssertions();
            for (RouteTable.Route route : consoleRoutes) {
                String path = route.pathTemplate().replaceAll("\\{[^/]+}", "x1");
                boolean reads = route.method().equals("GET") || route.method().equals("HEAD");
                for (Api api : List.of(node.anonymous(), node.caller(caller.key()), node.admin())) {
                    Reply reply = send(api, route.method(), path);
                    softly.assertThat(reply.status())
                            .as("%s %s without a session", route.method(), path)
                            .isEqualTo(reads ? 303 : 401);
                    if (reads) {
                        softly.assertThat(reply.header("Location"))
                                .as("%s %s without a session", route.method(), path)
                                .contains("/console/sign-in");
                    }
                }
                if (!reads) {
                    softly.assertThat(signedIn.post(path, Map.of()).statusCode())
                            .as("%s %s signed in, without the CSRF token", route.method(), path)
                            .isEqualTo(403);
                }
            }
            softly.assertAll();
        }
    }

    private static Reply send(Api api, String method, String path) {
        return api.send(method, path, method.equals("GET") ? null : "{}", Map.of());
    }
}
