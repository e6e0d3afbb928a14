package dev.pulseledger.config;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Parses {@code --read-database-url}: JDBC URLs separated by commas. A multi-host URL has commas of its
 * own ({@code jdbc:postgresql://h1:5432,h2:5432/db}), so a URL ends only where the next {@code jdbc:} begins.
 */
final class ReplicaUrls {
    static final int MAX_REPLICAS = 8;
    private static final int MAX_URL_LENGTH = 2_000;

    private ReplicaUrls() {}

    static Optional<List<String>> parse(String text) {
        if (text.isEmpty()) {
            return Optional.of(List.of());
        }
        List<String> urls =
                Arrays.stream(text.split(",(?=\\s*jdbc:)")).map(String::strip).toList();
        boolean valid = urls.size() <= MAX_REPLICAS
                && urls.stream()
                        .allMatch(url -> url.startsWith("jdbc:postgresql://")
                                && url.length() <= MAX_URL_LENGTH
                                && url.chars().noneMatch(Character::isWhitespace));
        return valid ? Optional.of(urls) : Optional.empty();
    }
}
