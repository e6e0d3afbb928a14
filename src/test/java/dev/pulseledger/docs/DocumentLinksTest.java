package dev.pulseledger.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the README and docs/ reaches a file of the repository (and a heading, for
 * a {@code #fragment}), and docs/CONTRACT.md is the contract itself, not an old copy.
 */
class DocumentLinksTest {
    private static final Path SHARED_CONTRACT = Path.of("..", "shared", "CONTRACT.md");
    private static final Path CONTRACT_COPY = Path.of("docs", "CONTRACT.md");
    /** Inline links {@code [text](target)}, outside code spans. */
    private static final Pattern LINK = Pattern.compile("(?<!`)\\[[^\\]]*]\\(([^)\\s]+)\\)");

    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6} (.+)$");

    @Test
    void everyRelativeLinkResolvesInsideTheRepository() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path document : documents()) {
            Matcher link = LINK.matcher(withoutCodeBlocks(Files.readString(document)));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto: ...
                }
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String fragment = target.contains("#") ? target.substring(target.indexOf('#') + 1) : "";
                Path resolved = file.isEmpty()
                        ? document.toAbsolutePath()
                        : document.toAbsolutePath().getParent().resolve(file).normalize();
                if (!resolved.startsWith(Path.of("").toAbsolutePath()) || !Files.exists(resolved)) {
                    broken.add(document + ": " + target + " (no such file in the repository)");
                } else if (!fragment.isEmpty() && !anchors(resolved).contains(fragment)) {
                    broken.add(document + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void docsContractIsACopyOfTheSharedContract() throws IOException {
        Assumptions.assumeTrue(Files.exists(SHARED_CONTRACT), "no ../shared beside the clone");
        assertThat(Files.readString(CONTRACT_COPY))
                .as("docs/CONTRACT.md differs from ../shared/CONTRACT.md: copy it again")
                .isEqualTo(Files.readString(SHARED_CONTRACT));
    }

    private static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        return documents;
    }

    /** GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped, spaces to hyphens. */
    private static Set<String> anchors(Path file) throws IOException {
        Set<String> anchors = new HashSet<>();
        if (!file.toString().endsWith(".md")) {
            return anchors;
        }
        Matcher heading = HEADING.matcher(withoutCodeBlocks(Files.readString(file)));
        while (heading.find()) {
            anchors.add(heading.group(1)
                    .strip()
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-'));
        }
        return anchors;
    }

    private static String withoutCodeBlocks(String markdown) {
        return markdown.replaceAll("(?s)```.*?```", "").replaceAll("(?m)^(    |\\t).*$", "");
    }
}
