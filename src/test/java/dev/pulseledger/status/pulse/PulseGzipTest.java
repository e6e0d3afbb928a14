package dev.pulseledger.status.pulse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GET /api/pulse goes gzipped to a client whose Accept-Encoding allows it: the same JSON, a tag of its
 * own, Vary: Accept-Encoding on every answer, and a 304 for the tag of the variant asked for.
 */
class PulseGzipTest {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private TestNode node;
    private String key;

    @BeforeEach
    void startWithAFeedWorthCompressing() {
        node = TestNode.start(TestStore.SQLITE.newDatabaseUrl());
        for (int i = 0; i < 12; i++) {
            node.admin()
                    .put(
                            "/admin/services/svc-" + i,
                            Map.of(
                                    "name",
                                    "Service " + i,
                                    "description",
                                    "A service with a description of typical length."));
        }
        key = new Fixtures(node).caller(0).key();
    }

    @AfterEach
    void stop() {
        node.close();
    }

    @Test
    void aClientThatAcceptsGzipGetsTheSameJsonGzippedUnderATagOfItsOwn() throws Exception {
        HttpResponse<byte[]> plain = get(Map.of());
        HttpResponse<byte[]> gzipped = get(Map.of("Accept-Encoding", "br, gzip;q=0.8"));

        assertThat(plain.statusCode()).isEqualTo(200);
        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(plain.body().length).isGreaterThan(1_024);
        assertThat(gzipped.statusCode()).isEqualTo(200);
        assertThat(gzipped.headers().firstValue("Content-Encoding")).contains("gzip");
        assertThat(gzipped.body().length).isLessThan(plain.body().length / 2);
        assertThat(gunzip(gzipped.body())).isEqualTo(plain.body());
        assertThat(plain.headers().firstValue("Vary")).contains("Accept-Encoding");
        assertThat(gzipped.headers().firstValue("Vary")).contains("Accept-Encoding");
        String plainTag = plain.headers().firstValue("ETag").orElseThrow();
        String gzipTag = gzipped.headers().firstValue("ETag").orElseThrow();
        assertThat(gzipTag).isNotEqualTo(plainTag).startsWith("\"").endsWith("\"");

        HttpResponse<byte[]> unchanged = get(Map.of("Accept-Encoding", "gzip", "If-None-Match", gzipTag));
        assertThat(unchanged.statusCode()).isEqualTo(304);
        assertThat(unchanged.headers().firstValue("ETag")).contains(gzipTag);
        assertThat(unchanged.headers().firstValue("Vary")).contains("Accept-Encoding");
        assertThat(get(Map.of("If-None-Match", plainTag)).statusCode()).isEqualTo(304);
        assertThat(get(Map.of("Accept-Encoding", "gzip", "If-None-Match", plainTag))
                        .statusCode())
                .as("the other variant's tag")
                .isEqualTo(200);
    }

    @Test
    void gzipRefusedOrNotNamedIsNotSent() throws Exception {
        for (String refusing :
                new String[] {"gzip;q=0", "identity", "deflate, br", "*;q=0", "gzip;q=0.000, *", "gzip;q=x"}) {
            HttpResponse<byte[]> reply = get(Map.of("Accept-Encoding", refusing));
            assertThat(reply.statusCode()).isEqualTo(200);
            assertThat(reply.headers().firstValue("Content-Encoding"))
                    .as(refusing)
                    .isEmpty();
        }
        for (String accepting : new String[] {"GZIP", "x-gzip", "*", "deflate;q=1, gzip;q=0.001"}) {
            assertThat(get(Map.of("Accept-Encoding", accepting)).headers().firstValue("Content-Encoding"))
                    .as(accepting)
                    .contains("gzip");
        }
    }

    private HttpResponse<byte[]> get(Map<String, String> headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.baseUrl() + "/api/pulse"))
                .header("X-ApiKey", key);
        headers.forEach(request::header);
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static byte[] gunzip(byte[] body) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return in.readAllBytes();
        }
    }
}
