package dev.pulseledger.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.http.RouteTable;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

class AdminRoutesNeedTheAdminKeyTest {
    @Test
    void everyRegisteredAdminRouteRefusesNoKeyWith401AndACallerKeyWith403() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(10);
            List<RouteTable.Route> adminRoutes = node.application().routes().stream()
                    .filter(route -> route.pathTemplate().startsWith(RouteTable.ADMIN_PREFIX))
                    .toList();
            assertThat(adminRoutes).as("admin routes found in the route table").hasSizeGreaterThan(20);

            SoftAssertions softly = new SoftAssertions();
            for (RouteTable.Route route : adminRoutes) {
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
                Reply asCaller = send(node.caller(caller.key()), route.method(), path);
                softly.assertThat(asCaller.status())
                        .as("%s %s with a caller key", route.method(), path)
                        .isEqualTo(403);
            }
            softly.assertAll();
        }
    }

    private static Reply send(Api api, String method, String path) {
        return api.send(method, path, method.equals("GET") ? null : "{}", Map.of());
    }
}
