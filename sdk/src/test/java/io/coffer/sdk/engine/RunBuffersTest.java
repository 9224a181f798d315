package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RunBuffersTest {
    @Test
    void aGivenBackArrayIsTakenAgainInsteadOfAllocatingOne() {
        RunBuffers pool = new RunBuffers(1024, 2);
        byte[] a = pool.take(100);
        assertThat(a).hasSize(1024);
        pool.give(a);
        assertThat(pool.take(1024)).isSameAs(a);
        assertThat(pool.take(10)).isNotSameAs(a);
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
}
