package dev.pulseledger.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The browser origins allowed to call {@code /api/} from their pages (CORS): exact
 * {@code scheme://host[:port]} values, or {@code *} for any. Empty means CORS is off.
 */
public record CorsOrigins(List<String> origins) {
    private static final int MAX_ORIGINS = 100;

    public CorsOrigins {
        origins = List.copyOf(origins);
    }

    public boolean enabled() {
        return !origins.isEmpty();
    }

    public boolean allows(String origin) {
        return origins.contains("*") || origins.contains(origin);
    }

    /** A comma-separated list; empty when a value is not an origin. */
    static Optional<CorsOrigins> parse(String text) {
        List<String> values = Arrays.stream(text.split(","))
                .map(String::strip)
                .filter(value -> !value.isEmpty())
                .toList();
        if (values.size() > MAX_ORIGINS || !values.stream().allMatch(CorsOrigins::isOrigin)) {
            return Optional.empty();
        }
        return Optional.of(new CorsOrigins(values));
    }

    private static boolean isOrigin(String value) {
        if (value.equals("*")) {
            return true;
        }
        try {
            URI uri = new URI(value);
            return (uri.getScheme().equals("http") || uri.getScheme().equals("https"))
                    && uri.getHost() != null
                    && uri.getRawPath().isEmpty()
                    && uri.getRawQuery() == null
                    && uri.getRawFragment() == null
                    && uri.getRawUserInfo() == null;
        } catch (URISyntaxException | NullPointerException e) {
            return false;
        }
    }
}
