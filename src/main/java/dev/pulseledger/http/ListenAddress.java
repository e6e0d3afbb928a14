package dev.pulseledger.http;

import dev.pulseledger.config.ConfigException;
import dev.pulseledger.config.Settings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * The address a node listens on: checked before anything else starts, so a port in use stops
 * start-up with one line (not a web server's stack trace after the database was opened), and shown
 * as the URL to open once the node listens.
 */
public final class ListenAddress {
    private ListenAddress() {}

    /** Fails with the one-line start-up error when {@code host:port} cannot be bound now. */
    public static void ensureFree(String host, int port) {
        if (port == 0) {
            return;
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(host, port));
        } catch (IOException e) {
            throw cannotListen(host, port, e.getMessage());
        }
    }

    public static ConfigException cannotListen(String host, int port, String why) {
        return new ConfigException("Cannot listen on " + host + ":" + port + " (" + Settings.HOST.flag() + "/"
                + Settings.PORT.flag() + ", " + Settings.HOST.env() + "/" + Settings.PORT.env() + "): " + why
                + "; is the port already in use?");
    }

    /** The URL a person opens: a wildcard address is reached through localhost. */
    public static String url(boolean tls, String host, int port) {
        String shown = host.equals("0.0.0.0") || host.equals("::") ? "localhost" : host;
        if (shown.contains(":")) {
            shown = "[" + shown + "]";
        }
        return (tls ? "https" : "http") + "://" + shown + ":" + port + "/";
    }
}
