package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RunBuffersTest {
    @Test
    void aGivenBackArrayIsTakenAgainInsteadOfAllocatingOne() {
        RunBuffers pool = new RunBuffers(1024, 2);
        byte[] a = pool.take(300);
        assertThat(a).hasSize(1024);
        pool.give(a);
        assertThat(pool.take(1024)).isSameAs(a);
        assertThat(pool.take(300)).isNotSameAs(a);
    }

    @Test
    void aRunOfAtMostAQuarterArrayGetsAnArrayOfItsOwnSizeWhichIsNotKept() {
        RunBuffers pool = new RunBuffers(1024, 2);
        pool.give(new byte[1024]);
        byte[] small = pool.take(256);
        assertThat(small).hasSize(256);
        assertThat(pool.pooled()).isEqualTo(1);
        pool.give(small);
        assertThat(pool.pooled()).isEqualTo(1);
        // what a reader reserves for a run is what take hands out for it
        assertThat(pool.footprint(256)).isEqualTo(256);
        assertThat(pool.footprint(257)).isEqualTo(1024);
        assertThat(pool.footprint(1024)).isEqualTo(1024);
        assertThat(pool.footprint(5000)).isEqualTo(5000);
    }

    @Test
    void aRunLongerThanAnArrayGetsItsOwnArrayWhichIsNotKept() {
        RunBuffers pool = new RunBuffers(1024, 2);
        byte[] big = pool.take(5000);
        assertThat(big).hasSize(5000);
        pool.give(big);
        assertThat(pool.pooled()).isZero();
    }

    @Test
    void atMostTheRetainedNumberOfArraysIsKept() {
        RunBuffers pool = new RunBuffers(16, 2);
        pool.give(new byte[16]);
        pool.give(new byte[16]);
        pool.give(new byte[16]);
        assertThat(pool.pooled()).isEqualTo(2);
    }

    @Test
    void givingTheSameArrayTwiceFailsInsteadOfLettingTwoReadersShareIt() {
        RunBuffers pool = new RunBuffers(16, 4);
        byte[] a = pool.take(16);
        pool.give(a);
        assertThatThrownBy(() -> pool.give(a)).isInstanceOf(IllegalStateException.class);
        assertThat(pool.pooled()).isEqualTo(1);
    }

    @Test
    void arraysBeyondTheRetainedOnesAreKeptSoftlyUpToTheirLimitAndTakenBeforeAllocating() {
        RunBuffers pool = new RunBuffers(16, 1, 2);
        byte[] a = new byte[16];
        byte[] b = new byte[16];
        byte[] c = new byte[16];
        byte[] d = new byte[16];
        pool.give(a);
        pool.give(b);
        pool.give(c);
        pool.give(d);
        assertThat(pool.pooled()).isEqualTo(1);
        assertThat(pool.softlyPooled()).isEqualTo(2); // d was over the limit
        // the strongly held one first, then the soft ones (none cleared: the heap is far from short)
        assertThat(pool.take(16)).isSameAs(a);
        byte[] first = pool.take(16);
        byte[] second = pool.take(16);
        assertThat(first == b && second == c || first == c && second == b).isTrue();
        byte[] fresh = pool.take(16);
        assertThat(fresh != a && fresh != b && fresh != c && fresh != d).isTrue();
        assertThat(pool.softlyPooled()).isZero();
    }

    @Test
    void givingBackAnArrayThatIsKeptSoftlyFailsToo() {
        RunBuffers pool = new RunBuffers(16, 1, 4);
        pool.give(new byte[16]);
        byte[] a = new byte[16];
        pool.give(a);
        assertThatThrownBy(() -> pool.give(a)).isInstanceOf(IllegalStateException.class);
        assertThat(pool.softlyPooled()).isEqualTo(1);
    }
}
