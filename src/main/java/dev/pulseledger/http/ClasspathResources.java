package dev.pulseledger.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Properties;

/** Reads files shipped inside the jar, failing at start when one is missing. */
public final class ClasspathResources {
    private ClasspathResources() {}

    /** The bytes of the resource at an absolute classpath {@code path} such as {@code /statuspage/status.css}. */
    public static byte[] read(String path) {
        try (InputStream in = ClasspathResources.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("The resource " + path + " is missing from the build");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The version of a webjar on the classpath, which names its folder under
     * {@code /META-INF/resources/webjars/}; reading it keeps the pom the one place that pins it.
     */
    public static String webjarVersion(String groupId, String artifactId) {
        String path = "/META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(new String(read(path), StandardCharsets.ISO_8859_1)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Optional.ofNullable(properties.getProperty("version"))
                .orElseThrow(() -> new IllegalStateException(path + " names no version"));
    }
}
