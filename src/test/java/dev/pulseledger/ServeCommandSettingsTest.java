package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pulseledger.config.ConfigException;
import dev.pulseledger.config.Setting;
import dev.pulseledger.config.Settings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ServeCommandSettingsTest {
    @Test
    void aFlagBeatsItsEnvironmentVariableWhichBeatsTheDefault() {
        Map<String, String> environment = Map.of("PULSELEDGER_DB_POOL_SIZE", "7", "PULSELEDGER_SPEND_BATCH_SIZE", "9");

        var config = ServeCommand.parseConfig(environment, "--spend-batch-size", "11");

        assertThat(config.get(Settings.SPEND_BATCH_SIZE)).isEqualTo(11);
        assertThat(config.get(Settings.DB_POOL_SIZE)).isEqualTo(7);
        assertThat(config.get(Settings.SPEND_QUEUE_LENGTH)).isEqualTo(10_000);
        assertThat(config.get(Settings.DB_STATEMENT_TIMEOUT)).isEqualTo(Duration.ofMillis(5000));
        assertThat(config.get(Settings.ADMIN_KEY)).isEmpty();
    }

    @Test
    void aBadValueFromTheEnvironmentIsNamedByFlagAndVariable() {
        assertThatThrownBy(() -> ServeCommand.parseConfig(Map.of("PULSELEDGER_IDLE_TIMEOUT_S", "0")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid setting --idle-timeout-s / PULSELEDGER_IDLE_TIMEOUT_S = '0': expected a whole"
                        + " number from 1 to 3600 seconds.");
    }

    @Test
    void aBadSecretIsNamedButNeverShown() {
        assertThatThrownBy(() -> ServeCommand.parseConfig(Map.of(), "--admin-key", "short secret"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("--admin-key / PULSELEDGER_ADMIN_KEY = '(hidden)'")
                .hasMessageNotContaining("short secret");
    }

    @Test
    void aSwitchStandsAloneOrTakesAValue() {
        assertThat(ServeCommand.parseConfig(Map.of(), "--demo").get(Settings.DEMO))
                .isTrue();
        assertThat(ServeCommand.parseConfig(Map.of("PULSELEDGER_DEMO", "true"), "--demo=false")
                        .get(Settings.DEMO))
                .isFalse();
        assertThat(ServeCommand.parseConfig(Map.of()).get(Settings.TLS_KEYSTORE))
                .isEqualTo(Optional.empty());
    }

    @Test
    void helpShowsEveryDeclaredSettingWithItsVariableWhatItAcceptsAndItsDefault() {
        StringWriter help = new StringWriter();
        CommandLine serve = ServeCommand.commandLine(Map.of());
        serve.setOut(new PrintWriter(help));
        serve.execute("--help");

        String unwrapped = help.toString().replaceAll("\\s", "");
        for (Setting<?> setting : Settings.all()) {
            String described = setting.help() + setting.env() + ";"
                    + setting.kind().accepts()
                    + (setting.defaultValue().isEmpty() ? "." : ";default" + setting.defaultValue() + ".");
            assertThat(unwrapped).contains(setting.flag(), described.replaceAll("\\s", ""));
        }
    }
}
