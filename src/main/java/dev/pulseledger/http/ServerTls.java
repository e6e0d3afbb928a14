package dev.pulseledger.http;

import dev.pulseledger.config.ConfigException;
import dev.pulseledger.config.TlsKeystore;
import io.helidon.common.tls.Tls;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * Builds the server's TLS from a PKCS12 keystore, failing at start with a message naming the setting:
 * TLS 1.3 and 1.2 only, forward-secret AEAD suites only, in the server's order, and no renegotiation
 * started by a client.
 */
public final class ServerTls {
    /**
     * The JSSE switch that refuses a renegotiation a client starts (TLS 1.2; 1.3 has none). JSSE reads
     * it once, when the first server handshake of the process begins, so it is set before any.
     */
    static final String REJECT_CLIENT_RENEGOTIATION = "jdk.tls.rejectClientInitiatedRenegotiation";

    static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    /** Strongest first; the server's order wins. All AEAD (GCM, ChaCha20-Poly1305), no CBC, no RSA key exchange. */
    static final List<String> CIPHER_SUITES = List.of(
            "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");

    private ServerTls() {}

    public static Tls load(TlsKeystore keystore) {
        System.setProperty(REJECT_CLIENT_RENEGOTIATION, "true");
        char[] password = keystore.password().toCharArray();
        try (InputStream in = Files.newInputStream(keystore.path())) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            if (Collections.list(store.aliases()).stream().noneMatch(alias -> isKeyEntry(store, alias))) {
                throw invalid(keystore, "it holds no private key");
            }
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return Tls.builder()
                    .sslContext(context)
                    .sslParameters(parameters(context))
                    .build();
        } catch (IOException | GeneralSecurityException e) {
            // The message of a failed load says "wrong password" or "not PKCS12"; it never holds the password.
            throw invalid(keystore, "it cannot be opened as PKCS12 with the given password (" + e.getMessage() + ")");
        }
    }

    private static SSLParameters parameters(SSLContext context) {
        Set<String> supported = Set.of(context.getSupportedSSLParameters().getCipherSuites());
        SSLParameters parameters = new SSLParameters();
        parameters.setProtocols(PROTOCOLS.toArray(String[]::new));
        parameters.setCipherSuites(
                CIPHER_SUITES.stream().filter(supported::contains).toArray(String[]::new));
        parameters.setUseCipherSuitesOrder(true);
        return parameters;
    }

    private static boolean isKeyEntry(KeyStore store, String alias) {
        try {
            return store.isKeyEntry(alias);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static ConfigException invalid(TlsKeystore keystore, String why) {
        return new ConfigException("Invalid setting --tls-keystore / PULSELEDGER_TLS_KEYSTORE = '" + keystore.path()
                + "' (with --tls-keystore-password / PULSELEDGER_TLS_KEYSTORE_PASSWORD): " + why + ".");
    }
}
