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
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/** Builds the server's TLS from a PKCS12 keystore, failing at start with a message naming the setting. */
public final class ServerTls {
    private ServerTls() {}

    public static Tls load(TlsKeystore keystore) {
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
            return Tls.builder().sslContext(context).build();
        } catch (IOException | GeneralSecurityException e) {
            // The message of a failed load says "wrong password" or "not PKCS12"; it never holds the password.
            throw invalid(keystore, "it cannot be opened as PKCS12 with the given password (" + e.getMessage() + ")");
        }
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
