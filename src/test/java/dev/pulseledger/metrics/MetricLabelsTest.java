package dev.pulseledger.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.RawHttp;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Nothing a stranger sends adds a time series: methods and paths map to a fixed set of label values. */
class MetricLabelsTest {
    private static final int HOSTILE_REQUESTS = 300;
    private static final int MAX_GROWTH_BYTES = 8 * 1024;

    @Test
    void madeUpMethodsAndPathsAddAtMostAFewSeries() throws IOException {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            int port = URI.create(node.baseUrl()).getPort();
            // One request of each kind first, so the series the hostile ones may share already exist.
            send(port, "BREW", "/api/pulse");
            send(port, "GET", "/nothing-here");
            int before = scrape(node).length();

            Random random = new Random(21);
            for (int i = 0; i < HOSTILE_REQUESTS; i++) {
                send(port, madeUpMethod(random), "/api/pulse");
                send(port, "GET", "/nothing-here/" + i + "/" + Long.toHexString(random.nextLong()));
            }
            String after = scrape(node);

            assertThat(after.length() - before).isLessThanOrEqualTo(MAX_GROWTH_BYTES);
            assertThat(after).contains("method=\"_OTHER\"").contains("route=\"unmatched\"");
            assertThat(after).doesNotContain("nothing-here").doesNotContain("method=\"BREW\"");
        }
    }

    private static void send(int port, String method, String path) throws IOException {
        String request = method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
        assertThat(RawHttp.status(port, request.getBytes(StandardCharsets.US_ASCII)))
                .as(method + " " + path)
                .isPresent();
    }

    /** A token of upper-case letters, as HTTP allows for a method. */
    private static String madeUpMethod(Random random) {
        StringBuilder method = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            method.append((char) ('A' + random.nextInt(26)));
        }
        return method.toString();
    }

    private static String scrape(TestNode node) {
        return node.anonymous().get("/metrics").text();
    }
}
