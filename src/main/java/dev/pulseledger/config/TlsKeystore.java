package dev.pulseledger.config;

import java.nio.file.Path;

/** Where the node's TLS key and certificate live: a PKCS12 keystore and its password. */
public record TlsKeystore(Path path, String password) {
    /** Never prints the password, should a record ever reach a log line. */
    @Override
    public String toString() {
        return "TlsKeystore[path=" + path + ", password=(hidden)]";
    }
}
