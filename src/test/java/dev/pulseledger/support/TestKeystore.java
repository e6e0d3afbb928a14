package dev.pulseledger.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A PKCS12 keystore with a self-signed certificate for 127.0.0.1, made by the JDK's keytool, for HTTPS tests. */
public record TestKeystore(Path path, String password) {
    /** Generates {@code server.p12} in {@code folder}. */
    public static TestKeystore generate(Path folder, String password) {
        Path keystore = folder.resolve("server.p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        try {
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
                            password)
                    .redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).as(output).isZero();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return new TestKeystore(keystore, password);
    }

    /** The node flags that serve HTTPS with this keystore. */
    public String[] flags() {
        return new String[] {"--tls-keystore", path.toString(), "--tls-keystore-password", password};
    }

    /** A TLS context that trusts exactly this keystore's certificate. */
    public SSLContext trusting() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(path)) {
                store.load(in, password.toCharArray());
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
