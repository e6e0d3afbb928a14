package dev.pulseledger;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.Properties;
import picocli.CommandLine;

/** The version this build was made from, as Maven stamped it; for {@code -V}, the log and metrics. */
public final class BuildInfo implements CommandLine.IVersionProvider {
    private static final String VERSION = readVersion();

    public static String version() {
        return VERSION;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"Pulseledger " + VERSION};
    }

    private static String readVersion() {
        Properties properties = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            if (in == null) {
                throw new IllegalStateException("build.properties is missing from the build");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Optional.ofNullable(properties.getProperty("version"))
                .orElseThrow(() -> new IllegalStateException("build.properties names no version"));
    }
}
