package dev.pulseledger.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Input is strict UTF-8 and what a 201 shows is what is stored (CONTRACT §12); refusals are in our
 * words, never a library's, and echo at most a short escaped excerpt.
 */
class StrictInputTest {
    /** Names a refusal must never carry: library classes, features, and their location format. */
    private static final List<String> INTERNALS = List.of(
            "DeserializationFeature",
            "StreamReadFeature",
            "JsonReadFeature",
            "ObjectNode",
            "JsonNode",
            "[Source",
            "jackson",
            "Exception",
            "`");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void invalidUtf8OverlongFormsAndUnpairedSurrogatesAreRefusedAndNothingIsStored(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api admin = node.admin();
            Map<String, byte[]> names = Map.of(
                    "overlong '<' (C0 BC)", bytes(0xC0, 0xBC),
                    "overlong '/' (E0 80 AF)", bytes(0xE0, 0x80, 0xAF),
                    "encoded surrogate (ED A0 80)", bytes(0xED, 0xA0, 0x80),
                    "invalid byte (FF)", bytes(0xFF),
                    "truncated sequence (C3)", bytes(0xC3, '('),
                    "escaped lone high surrogate", ascii("\\ud800"),
                    "escaped lone low surrogate", ascii("\\udc00"),
                    "escaped pair in the wrong order", ascii("\\ude00\\ud83d"),
                    "escaped high surrogate before a letter", ascii("\\ud83dx"));
            int n = 0;
            for (Map.Entry<String, byte[]> name : names.entrySet()) {
                String planId = "strict-" + n++;

                Reply reply = admin.post("/admin/plans", planBody(planId, name.getValue()));

                assertThat(reply.status()).as(name.getKey() + ": " + reply).isEqualTo(400);
                assertThat(reply.code()).as(name.getKey()).isEqualTo("invalid_json");
                assertFreeOfInternals(reply);
                assertThat(admin.get("/admin/plans/" + planId).status())
                        .as(name.getKey() + ": nothing stored")
                        .isEqualTo(404);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void whatA201ShowsIsExactlyWhatIsStoredAndReadBack(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api admin = node.admin();
            String name = "Zoë 中文 \uD83D\uDE00 e\u0301 \uD800\uDC00 é";
            byte[] raw = planBody("exact-raw", name.getBytes(StandardCharsets.UTF_8));
            byte[] escaped = planBody(
                    "exact-escaped",
                    ascii("Zo\\u00eb \\u4e2d\\u6587 \\ud83d\\ude00 e\\u0301" + " \\ud800\\udc00 \\u00e9"));

            for (byte[] body : List.of(raw, escaped)) {
                Reply created = admin.post("/admin/plans", body);

                assertThat(created.status()).as(created.toString()).isEqualTo(201);
                assertThat(created.json().get("name").asText()).isEqualTo(name);
                Reply read =
                        admin.get("/admin/plans/" + created.json().get("id").asText());
                assertThat(read.json().get("name").asText()).isEqualTo(name);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = TestStore.class, names = "SQLITE")
    void refusalsNameTheFieldInOurWordsAndEchoNoMoreThanAShortEscapedExcerpt(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api admin = node.admin();
            String longName = "<script>" + "x".repeat(200) + "\u0007";

            Reply duplicateAndNaN = admin.post("/admin/plans", "{\"id\": \"dup\", \"id\": \"dup\", \"name\": NaN}");
            Reply nan = admin.post("/admin/plans", "{\"id\": \"nan\", \"monthlyTokens\": NaN}");
            Reply trailing = admin.post("/admin/plans", "{\"id\": \"t\"} {}");
            Reply unknown = admin.post("/admin/plans", Map.of("id", "u", longName, 1));
            Reply deep = admin.post("/admin/plans", "{\"a\":".repeat(40) + "1" + "}".repeat(40));

            assertThat(duplicateAndNaN.status()).isEqualTo(400);
            assertThat(duplicateAndNaN.code()).isEqualTo("invalid_json");
            assertThat(duplicateAndNaN.json().get("detail").asText()).isEqualTo("Field 'id' appears more than once.");
            assertThat(nan.json().get("detail").asText())
                    .isEqualTo("The request body is not valid JSON at line 1, column 35 (field 'monthlyTokens').");
            assertThat(trailing.json().get("detail").asText())
                    .isEqualTo("The request body must hold one JSON object and nothing after it.");
            assertThat(unknown.json().get("detail").asText())
                    .isEqualTo("Field '<script>" + "x".repeat(32) + "…' is not a known field.");
            assertThat(deep.json().get("detail").asText()).startsWith("The request body goes past a limit");
            for (Reply reply : List.of(duplicateAndNaN, nan, trailing, unknown, deep)) {
                assertThat(reply.status()).isEqualTo(400);
                assertFreeOfInternals(reply);
                assertThat(reply.text()).doesNotContain("x".repeat(Excerpt.MAX_CHARS));
            }
        }
    }

    private static void assertFreeOfInternals(Reply reply) {
        for (String internal : INTERNALS) {
            assertThat(reply.text()).as(reply.toString()).doesNotContainIgnoringCase(internal);
        }
    }

    private static byte[] planBody(String id, byte[] name) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(ascii("{\"id\": \"" + id + "\", \"name\": \""));
        body.writeBytes(name);
        body.writeBytes(ascii("\"}"));
        return body.toByteArray();
    }

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
