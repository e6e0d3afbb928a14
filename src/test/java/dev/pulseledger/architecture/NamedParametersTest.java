package dev.pulseledger.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every SQL statement in {@code src/main} binds its parameters by name ({@code :account_id}, through Jdbi or
 * {@code store/NamedSql}), never by position: a string literal that places a JDBC {@code ?} where a value
 * goes fails this test with its file and line.
 */
class NamedParametersTest {
    /**
     * A {@code ?} where SQL takes a value: after an operator, a comma, a parenthesis or a keyword, and before
     * a space, a comma, a parenthesis or the end (regular expressions' {@code (?=} or an XML {@code <?xml} are
     * not).
     */
    private static final Pattern POSITIONAL =
            Pattern.compile("(?i)(=|<|>|,|\\(|\\bLIMIT|\\bOFFSET|\\bIN|\\bANY)\\s*\\?(?=\\s|,|\\)|;|$)");

    private static final Pattern STRING_LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    @Test
    void noStatementBindsAParameterByPosition() throws IOException {
        List<String> positional = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher literal = STRING_LITERAL.matcher(lines.get(i));
                    while (literal.find()) {
                        if (POSITIONAL.matcher(literal.group(1)).find()) {
                            positional.add(
                                    file + ":" + (i + 1) + ": " + lines.get(i).strip());
                        }
                    }
                }
            }
        }
        assertThat(positional).as("SQL with positional parameters").isEmpty();
    }

    @Test
    void theCheckFindsAPositionalParameter() {
        assertThat(POSITIONAL.matcher("SELECT id FROM plans WHERE id = ?").find())
                .isTrue();
        assertThat(POSITIONAL.matcher("UPDATE t SET a = ?, b = :b").find()).isTrue();
        assertThat(POSITIONAL.matcher("SELECT 1 FROM t LIMIT ?").find()).isTrue();
        assertThat(POSITIONAL.matcher("WHERE id = :id AND x IN (:ids)").find()).isFalse();
        assertThat(POSITIONAL.matcher("(?=.{1,253}$)[a-z0-9]").find()).isFalse();
        assertThat(POSITIONAL.matcher("<?xml version=\"1.0\"?>").find()).isFalse();
    }
}
