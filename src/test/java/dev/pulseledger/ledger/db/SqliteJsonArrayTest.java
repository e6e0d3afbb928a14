package dev.pulseledger.ledger.db;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ids the SQLite round hands to {@code json_each} read back as the very same strings, whatever they hold. */
class SqliteJsonArrayTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyIdReadsBackAsItWas() throws Exception {
        List<String> ids = List.of(
                "acct_01aaaaaaaaaaaaaaaaaaaaaaaa", "quote\"d", "back\\slash", "line\nbreak\u0001", "ünï€😀", "");

        String json = SqliteLedgerStore.jsonArray(ids);

        assertThat(JSON.readValue(json, new TypeReference<List<String>>() {})).isEqualTo(ids);
    }

    @Test
    void noIdsAreAnEmptyArray() {
        assertThat(SqliteLedgerStore.jsonArray(List.of())).isEqualTo("[]");
    }
}
