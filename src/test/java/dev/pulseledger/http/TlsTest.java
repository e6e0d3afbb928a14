package dev.pulseledger.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pulseledger.config.ConfigException;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsTest {
    private static final String PASSWORD = "keystore-secret-4711";

    @TempDir
    static Path folder;

    private static Path keystore;

    @BeforeAll
    static void generateKeystore() throws IOException, InterruptedException {
        keystore = folder.resolve("server.p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(
                        keytool.toString(),
                        "-genkeypair",
                        "-alias",
                        "pulseledger",
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-dname",
                        "CN=localhost",
                        "-ext",
                        "SAN=ip:127.0.0.1,dns:localhost",
                        "-validity",
                        "2",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        keystore.toString(),
                        "-storepass",
                        PASSWORD)
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
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

    private static SSLContext trusting(Path keystore) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
