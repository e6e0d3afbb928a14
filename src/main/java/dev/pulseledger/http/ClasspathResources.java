package dev.pulseledger.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

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
}
