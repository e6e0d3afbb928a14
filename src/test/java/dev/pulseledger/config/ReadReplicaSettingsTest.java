package dev.pulseledger.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code --read-database-url} and {@code --max-replica-lag-ms} are read and checked before a port opens. */
class ReadReplicaSettingsTest {
    private static final String PRIMARY = "jdbc:postgresql://db:5432/pulseledger";

    @Test
    void severalReplicaUrlsAreSplitAtEachJdbcPrefixSoAMultiHostUrlKeepsItsCommas() {
        Config config = config(
                Map.of(
                        "database-url",
                        PRIMARY,
                        "read-database-url",
                        "jdbc:postgresql://r1:5432,r2:5432/pulseledger?targetServerType=preferSecondary, jdbc:postgresql://r3/p"));
        assertThat(config.readReplicas())
                .containsExactly(
                        "jdbc:postgresql://r1:5432,r2:5432/pulseledger?targetServerType=preferSecondary",
                        "jdbc:postgresql://r3/p");
        assertThat(config.get(Settings.MAX_REPLICA_LAG).toMillis()).isEqualTo(1000);
    }

    @Test
    void noReplicaByDefault() {
        assertThat(config(Map.of()).readReplicas()).isEmpty();
    }

    @Test
    void aReplicaThatIsNotPostgresqlOrTooManyIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> config(Map.of("database-url", PRIMARY, "read-database-url", "jdbc:sqlite:replica.db")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("--read-database-url");
        String nine = String.join(",", java.util.Collections.nCopies(9, "jdbc:postgresql://r/p"));
        assertThatThrownBy(() -> config(Map.of("database-url", PRIMARY, "read-database-url", nine)))
                .hasMessageContaining("at most 8");
        assertThatThrownBy(() -> config(Map.of("database-url", PRIMARY, "max-replica-lag-ms", "50")))
                .hasMessageContaining("--max-replica-lag-ms");
    }

    @Test
    void replicasNeedAPostgresqlPrimary() {
        assertThatThrownBy(() -> config(Map.of("read-database-url", "jdbc:postgresql://r/p")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("read replicas need a PostgreSQL --database-url");
    }

    private static Config config(Map<String, String> given) {
        return Config.read(setting -> Optional.ofNullable(given.get(setting.name())));
    }
}
