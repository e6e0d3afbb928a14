package dev.pulseledger.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadmeSettingsTableTest {
    private static final String HEADER = "| Variable | Flag | Default | Accepts | What it does |";

    @Test
    void theReadmeConfigurationTableListsExactlyTheDeclaredSettings() throws IOException {
        List<String> expected = new ArrayList<>(List.of(HEADER, "|---|---|---|---|---|"));
        for (Setting<?> setting : Settings.all()) {
            expected.add("| `" + setting.env() + "` | `" + setting.flag() + "` | "
                    + (setting.defaultValue().isEmpty() ? "none" : "`" + setting.defaultValue() + "`")
                    + " | " + setting.kind().accepts() + " | " + setting.help() + " |");
        }

        assertThat(readmeTable())
                .as(
                        "README.md's configuration table, generated from config/Settings.java:%n%s",
                        String.join("\n", expected))
                .containsExactlyElementsOf(expected);
    }

    private static List<String> readmeTable() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("README.md"));
        int start = lines.indexOf(HEADER);
        assertThat(start).as("README.md has a table starting with " + HEADER).isNotNegative();
        List<String> table = new ArrayList<>();
        for (int i = start; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            table.add(lines.get(i));
        }
        return table;
    }
}
