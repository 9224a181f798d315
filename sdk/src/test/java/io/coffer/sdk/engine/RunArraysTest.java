package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
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

    @Test
    void softlyKeptArraysOfBothSizesShareOneLimit() {
        AtomicLong softBytes = new AtomicLong();
        RunBuffers s16 = new RunBuffers(16, 1, softBytes, 48);
        RunBuffers s32 = new RunBuffers(32, 1, softBytes, 48);
        RunArrays shared = new RunArrays(s16, 16, s32);
        byte[][] small = {shared.take(16), shared.take(16), shared.take(16)};
        byte[][] large = {shared.take(32), shared.take(32)};
        for (byte[] b : small) {
            shared.give(b); // one kept strongly, two softly: 32 of the 48 bytes
        }
        for (byte[] b : large) {
            shared.give(b); // one kept strongly; the other would take the soft bytes to 64
        }
        assertThat(s16.softlyPooled()).isEqualTo(2);
        assertThat(s32.softlyPooled()).isZero();
        assertThat(softBytes.get()).isEqualTo(32);
        shared.take(16);
        shared.take(16);
        shared.take(16); // the strong one, then the two soft ones: their bytes free the shared limit again
        assertThat(softBytes.get()).isZero();
    }
}
