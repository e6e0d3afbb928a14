package dev.pulseledger.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.http.RouteTable;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns registered route templates into paths a test can request, so tests walk the routes a node really has. */
public final class RoutePaths {
    private static final Pattern PARAMETER = Pattern.compile("\\{([A-Za-z]+)}");

    private RoutePaths() {}

    /** The node's routes with this method under {@code prefix}, in the order they were registered. */
    public static List<RouteTable.Route> of(TestNode node, String method, String prefix) {
        return node.application().routes().stream()
                .filter(route -> route.method().equals(method))
                .filter(route -> route.pathTemplate().startsWith(prefix))
                .toList();
    }

    /** The template with {@code ids} in its placeholders; a placeholder without an id fails the test. */
    public static String concrete(String pathTemplate, Map<String, String> ids) {
        Matcher matcher = PARAMETER.matcher(pathTemplate);
        StringBuilder path = new StringBuilder();
        while (matcher.find()) {
            String id = ids.get(matcher.group(1));
            assertThat(id)
                    .as("an id for {%s} in %s", matcher.group(1), pathTemplate)
                    .isNotNull();
            matcher.appendReplacement(path, Matcher.quoteReplacement(id));
        }
        matcher.appendTail(path);
        return path.toString();
    }

    /** The paths a template matches, as a regular expression that Java and a page's script both read. */
    public static Pattern pattern(String pathTemplate) {
        assertThat(pathTemplate).as("a plain path").matches("[a-z0-9/{}A-Z_.-]+");
        return Pattern.compile(
                PARAMETER.matcher(pathTemplate.replace(".", "\\.")).replaceAll("[^/]+"));
    }
}
