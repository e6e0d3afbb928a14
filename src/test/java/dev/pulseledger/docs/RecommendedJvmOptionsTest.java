package dev.pulseledger.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The JVM options of the README's run command (which the benchmarks copy) are the ones the launcher,
 * the systemd unit and the container image start the service with, so a change to them is one change.
 */
class RecommendedJvmOptionsTest {
    private static final Pattern README_COMMAND =
            Pattern.compile("`java((?: +-[^ `]+)*) +-jar target/pulseledger\\.jar serve");
    private static final Pattern LAUNCHER_DEFAULT =
            Pattern.compile("java_opts=\"\\$\\{PULSELEDGER_JAVA_OPTS:-([^}]*)}\"");
    private static final Pattern UNIT_COMMAND =
            Pattern.compile("(?m)^ExecStart=\\S+/java --enable-native-access=ALL-UNNAMED((?: +-[^ ]+)*) +-jar ");
    private static final Pattern IMAGE_ENTRYPOINT =
            Pattern.compile("ENTRYPOINT \\[\"java\", \"--enable-native-access=ALL-UNNAMED\", (.*), \"-jar\",");

    @Test
    void theLauncherTheUnitAndTheImageUseTheReadmesOptions() throws IOException {
        List<String> readme = words(first(README_COMMAND, "README.md"));

        assertThat(readme).contains("-XX:+UseSerialGC").anyMatch(option -> option.startsWith("-Xmx"));
        assertThat(words(first(LAUNCHER_DEFAULT, "pulseledger")))
                .as("./pulseledger")
                .isEqualTo(readme);
        assertThat(words(first(UNIT_COMMAND, "deploy/pulseledger.service")))
                .as("systemd unit")
                .isEqualTo(readme);
        assertThat(words(first(IMAGE_ENTRYPOINT, "deploy/Dockerfile")
                        .replace("\"", "")
                        .replace(",", " ")))
                .as("Dockerfile")
                .isEqualTo(readme);
    }

    private static String first(Pattern pattern, String file) throws IOException {
        Matcher matcher = pattern.matcher(Files.readString(Path.of(file)));
        assertThat(matcher.find()).as("%s holds %s", file, pattern).isTrue();
        return matcher.group(1);
    }

    private static List<String> words(String options) {
        return Arrays.stream(options.trim().split(" +")).toList();
    }
}
