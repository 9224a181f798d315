package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RunArraysTest {
    private final RunBuffers small = new RunBuffers(1024, 2);
    private final RunBuffers large = new RunBuffers(2048, 2);
    private final RunArrays arrays = new RunArrays(small, 1024, large);

    @Test
    void aRunUpToTheSmallSizeTakesAndReservesASmallArray() {
        assertThat(arrays.take(1024)).hasSize(1024);
        assertThat(arrays.take(300)).hasSize(1024);
        assertThat(arrays.footprint(1024)).isEqualTo(1024);
        assertThat(arrays.footprint(100)).isEqualTo(100); // a quarter array or less: its own size
    }

    @Test
    void aLongerRunTakesAndReservesALargeArray() {
        assertThat(arrays.take(1025)).hasSize(2048);
        assertThat(arrays.take(2048)).hasSize(2048);
        assertThat(arrays.footprint(1025)).isEqualTo(2048);
        assertThat(arrays.footprint(5000)).isEqualTo(5000); // longer than either: its own array
    }

    @Test
    void eachArrayGoesBackToThePoolOfItsSize() {
        byte[] s = arrays.take(1000);
        byte[] l = arrays.take(2000);
        arrays.give(s);
        arrays.give(l);
        arrays.give(new byte[100]);
        arrays.give(null);
        assertThat(small.pooled()).isEqualTo(1);
        assertThat(large.pooled()).isEqualTo(1);
        assertThat(arrays.take(900)).isSameAs(s);
        assertThat(arrays.take(1900)).isSameAs(l);
    }
}
