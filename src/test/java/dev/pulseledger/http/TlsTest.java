package dev.pulseledger.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pulseledger.config.ConfigException;
import dev.pulseledger.support.TestKeystore;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsTest {
    private static final String PASSWORD = "keystore-secret-4711";

    @TempDir
    static Path folder;

    private static Path keystore;

    @BeforeAll
    static void generateKeystore() {
        keystore = TestKeystore.generate(folder, PASSWORD).path();
    }

    @Test
    void aNodeWithAKeystoreServesHttpsToAClientThatTrustsItsCertificate() throws Exception {
        try (TestNode node = TestNode.start(
                TestStore.SQLITE.newDatabaseUrl(),
                "--tls-keystore",
                keystore.toString(),
                "--tls-keystore-password",
                PASSWORD)) {
            HttpClient client = HttpClient.newBuilder()
                    .sslContext(trusting(keystore))
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            String base = "https://127.0.0.1:" + node.application().port();

            HttpResponse<String> live = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/health/live")).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> plans = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/admin/plans"))
                            .header("X-ApiKey", TestNode.ADMIN_KEY)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(live.statusCode()).isEqualTo(200);
            assertThat(plans.statusCode()).isEqualTo(200);
            assertThat(plans.body()).contains("\"free\"");
            assertThat(plans.sslSession()).isPresent();
        }
    }

    @Test
    void aNodeWithAKeystoreDoesNotAnswerPlainHttp() {
        try (TestNode node = TestNode.start(
                TestStore.SQLITE.newDatabaseUrl(),
                "--tls-keystore",
                keystore.toString(),
                "--tls-keystore-password",
                PASSWORD)) {
            HttpClient plain = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            HttpRequest request = HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + node.application().port() + "/health/live"))
                    .timeout(Duration.ofSeconds(10))
                    .build();

            assertThatThrownBy(() -> plain.send(request, HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void aWrongKeystorePasswordFailsAtStartNamingTheSettingButNotThePassword() {
        assertThatThrownBy(() -> TestNode.start(
                        TestStore.SQLITE.newDatabaseUrl(),
                        "--tls-keystore",
                        keystore.toString(),
                        "--tls-keystore-password",
                        "not-the-password-9876"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("--tls-keystore")
                .hasMessageNotContaining("not-the-password-9876");
    }

    @Test
    void aKeystoreWithoutAPasswordOrAPasswordWithoutAKeystoreIsRefused() {
        for (List<String> flags : List.of(
                List.of("--tls-keystore", keystore.toString()),
                List.of("--tls-keystore-password", PASSWORD),
                List.of(
                        "--tls-keystore",
                        folder.resolve("missing.p12").toString(),
                        "--tls-keystore-password",
                        PASSWORD))) {
            assertThatThrownBy(() -> TestNode.config(TestStore.SQLITE.newDatabaseUrl(), flags.toArray(String[]::new)))
                    .as(flags.toString())
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("--tls-keystore")
                    .hasMessageNotContaining(PASSWORD);
        }
    }

    @Test
    void everyHttpsResponseCarriesStrictTransportSecurityWithTheConfiguredMaxAge() throws Exception {
        try (TestNode node = startWithTls("--hsts-max-age-s", "600")) {
            HttpClient client = HttpClient.newBuilder()
                    .sslContext(trusting(keystore))
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            String base = "https://127.0.0.1:" + node.application().port();

            HttpResponse<String> live = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/health/live")).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> notFound = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/no/such/path")).build(),
                    HttpResponse.BodyHandlers.ofString());
            String refusedBeforeRouting;
            try (SSLSocket socket = tlsSocket(node, "TLSv1.3", null)) {
                refusedBeforeRouting = exchange(
                        socket, "GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(20_000) + "\r\n\r\n");
            }

            assertThat(live.headers().firstValue("Strict-Transport-Security")).contains("max-age=600");
            assertThat(notFound.statusCode()).isEqualTo(404);
            assertThat(notFound.headers().firstValue("Strict-Transport-Security"))
                    .contains("max-age=600");
            assertThat(refusedBeforeRouting)
                    .startsWith("HTTP/1.1 431")
                    .contains("Strict-Transport-Security: max-age=600");
        }
    }

    @Test
    void plainHttpSendsNoStrictTransportSecurity() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            assertThat(node.anonymous().get("/health/live").header("Strict-Transport-Security"))
                    .isEmpty();
        }
    }

    @Test
    void aClientThatRenegotiatesOnTls12IsRefusedAndNotServedAgain() throws Exception {
        try (TestNode node = startWithTls();
                SSLSocket socket = tlsSocket(node, "TLSv1.2", null)) {
            String first = exchange(socket, "GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(first).startsWith("HTTP/1.1 200");

            assertThatThrownBy(() -> {
                        socket.startHandshake();
                        exchange(socket, "GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n");
                    })
                    .as("renegotiation is refused with a fatal alert (without the refusal the node stalls instead)")
                    .isInstanceOf(SSLHandshakeException.class)
                    .hasMessageContaining("handshake_failure");
        }
    }

    @Test
    void onlyAeadSuitesOnTls12And13AreOfferedInTheServersOrder() throws Exception {
        try (TestNode node = startWithTls()) {
            String[] clientPrefersAes128 = {
                "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"
            };
            try (SSLSocket tls12 = tlsSocket(node, "TLSv1.2", clientPrefersAes128);
                    SSLSocket tls13 = tlsSocket(
                            node, "TLSv1.3", new String[] {"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"})) {
                tls12.startHandshake();
                tls13.startHandshake();

                assertThat(tls12.getSession().getCipherSuite()).isEqualTo("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384");
                assertThat(tls13.getSession().getCipherSuite()).isEqualTo("TLS_AES_256_GCM_SHA384");
            }
            for (String cbc : List.of(
                    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
                    "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384",
                    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA")) {
                try (SSLSocket socket = tlsSocket(node, "TLSv1.2", new String[] {cbc})) {
                    assertThatThrownBy(socket::startHandshake).as(cbc).isInstanceOf(SSLException.class);
                }
            }
        }
    }

    private static TestNode startWithTls(String... moreFlags) {
        List<String> flags =
                new ArrayList<>(List.of("--tls-keystore", keystore.toString(), "--tls-keystore-password", PASSWORD));
        flags.addAll(List.of(moreFlags));
        return TestNode.start(TestStore.SQLITE.newDatabaseUrl(), flags.toArray(String[]::new));
    }

    /** A TLS connection with one protocol and, if given, only these suites in this order of preference. */
    private static SSLSocket tlsSocket(TestNode node, String protocol, String[] suites) throws Exception {
        SSLSocket socket = (SSLSocket) trusting(keystore)
                .getSocketFactory()
                .createSocket("127.0.0.1", node.application().port());
        socket.setSoTimeout(10_000);
        socket.setEnabledProtocols(new String[] {protocol});
        if (suites != null) {
            socket.setEnabledCipherSuites(suites);
        }
        return socket;
    }

    /** Writes one request and reads its response head and Content-Length body. */
    private static String exchange(SSLSocket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("The server closed the connection after: " + head);
            }
            head.append((char) b);
        }
        Matcher length = Pattern.compile("(?i)content-length: (\\d+)").matcher(head);
        byte[] body = in.readNBytes(length.find() ? Integer.parseInt(length.group(1)) : 0);
        return head + new String(body, StandardCharsets.UTF_8);
    }

    private static SSLContext trusting(Path keystore) {
        return new TestKeystore(keystore, PASSWORD).trusting();
    }
}
