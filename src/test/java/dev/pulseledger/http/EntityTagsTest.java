package dev.pulseledger.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EntityTagsTest {
    private static final String TAG = "\"abc\"";

    @Test
    void aTagIsQuotedAndFollowsTheBody() {
        String tag = EntityTags.of("one".getBytes(StandardCharsets.UTF_8));
        assertThat(tag).matches("\"[0-9a-f]{32}\"");
        assertThat(EntityTags.of("one".getBytes(StandardCharsets.UTF_8))).isEqualTo(tag);
        assertThat(EntityTags.of("two".getBytes(StandardCharsets.UTF_8))).isNotEqualTo(tag);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "\"abc\"",
                "W/\"abc\"",
                " \"abc\" ",
                "*",
                "\"x\",\"abc\"",
                "\"x\" , W/\"abc\"",
                "\"a,b\", \"abc\""
            })
    void namesTheTagStronglyWeaklyInAListOrByWildcard(String ifNoneMatch) {
        assertThat(EntityTags.noneMatchNames(ifNoneMatch, TAG)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "\"abcd\"",
                "abc",
                "\"x\", abc",
                "\"abc",
                "W/abc",
                "w/\"abc\"",
                "\"a,b\"",
                "**",
                "\"x\" garbage \"abc\""
            })
    void otherOrMalformedValuesNameNothing(String ifNoneMatch) {
        assertThat(EntityTags.noneMatchNames(ifNoneMatch, TAG)).isFalse();
    }
}
