package io.coffer.sdk.meta.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ListingWalkTest {
    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    @Test
    void successorIncrementsTheLastByteThatIsNotFf() {
        assertThat(ListingWalk.successor(bytes('a', 'b'))).containsExactly(bytes('a', 'c'));
        assertThat(ListingWalk.successor(bytes('a', 0xFF, 0xFF))).containsExactly(bytes('b'));
        assertThat(ListingWalk.successor(bytes(0x7F))).containsExactly(bytes(0x80));
    }

    @Test
    void successorOfTheEmptyPrefixOrOnlyFfBytesIsUnbounded() {
        assertThat(ListingWalk.successor(bytes())).isNull();
        assertThat(ListingWalk.successor(bytes(0xFF, 0xFF))).isNull();
    }

    @Test
    void indexOfFindsTheDelimiterFromTheGivenOffset() {
        byte[] key = bytes('a', '/', 'b', '/');
        assertThat(ListingWalk.indexOf(key, bytes('/'), 0)).isEqualTo(1);
        assertThat(ListingWalk.indexOf(key, bytes('/'), 2)).isEqualTo(3);
        assertThat(ListingWalk.indexOf(key, bytes('/', '/'), 0)).isEqualTo(-1);
    }
}
