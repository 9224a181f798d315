package io.coffer.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ETagsTest {
    @Test
    void unquoteTakesOffWhitespaceTheWeakPrefixAndQuotes() {
        assertThat(ETags.unquote(" \"abc\" ")).isEqualTo("abc");
        assertThat(ETags.unquote("W/\"abc\"")).isEqualTo("abc");
        assertThat(ETags.unquote("abc")).isEqualTo("abc");
        assertThat(ETags.unquote("\"")).isEqualTo("\"");
    }

    @Test
    void aConditionMatchesTheWildcardOrAnyTagOfItsList() {
        assertThat(ETags.matches("*", "abc")).isTrue();
        assertThat(ETags.matches("\"abc\"", "abc")).isTrue();
        assertThat(ETags.matches("abc", "\"abc\"")).isTrue();
        assertThat(ETags.matches("\"x\", W/\"abc\"", "abc")).isTrue();
        assertThat(ETags.matches("\"x\", \"y\"", "abc")).isFalse();
        assertThat(ETags.matches("\"abcd\"", "abc")).isFalse();
    }
}
