package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class IdleArraysTest {
    private static final long IDLE = 1_000;
    private final AtomicLong clock = new AtomicLong(5_000);
    private final IdleArrays idle = new IdleArrays(IDLE, clock::get);

    @Test
    void softlyKeptArraysUnusedForTheIdleTimeAreDroppedWhenAnotherPoolOfTheGroupIsUsed() {
        AtomicLong writeBytes = new AtomicLong();
        RunBuffers writes = new RunBuffers(16, 1, writeBytes, 64, idle);
        RunBuffers reads = new RunBuffers(32, 1, new AtomicLong(), 64, idle);
        byte[] kept = new byte[16];
        writes.give(kept);
        writes.give(new byte[16]);
        writes.give(new byte[16]);
        assertThat(writes.softlyPooled()).isEqualTo(2);
        assertThat(writeBytes.get()).isEqualTo(32);

        clock.addAndGet(IDLE + 1);
        reads.take(32); // the write pool is idle: a read sweeps it

        assertThat(writes.softlyPooled()).isZero();
        assertThat(writeBytes.get()).isZero(); // their bytes no longer count against the soft limit
        assertThat(writes.pooled()).isEqualTo(1); // the strongly retained one stays
        assertThat(writes.take(16)).isSameAs(kept);
    }

    @Test
    void aPoolInUseKeepsItsWorkingSetAndDropsOnlyWhatItNoLongerNeeds() {
        RunBuffers pool = new RunBuffers(16, 1, new AtomicLong(), 64, idle);
        pool.give(new byte[16]);
        byte[] a = new byte[16];
        byte[] b = new byte[16];
        byte[] c = new byte[16];
        pool.give(a);
        pool.give(b);
        pool.give(c);
        // two arrays at a time from now on: the last given is taken first, so a (the oldest) goes unused
        for (int i = 0; i < 6; i++) {
            clock.addAndGet(IDLE / 2);
            pool.give(pool.take(16));
            byte[] x = pool.take(16);
            byte[] y = pool.take(16);
            pool.give(x);
            pool.give(y);
        }
        assertThat(pool.softlyPooled()).isEqualTo(1);
        pool.take(16); // the strongly held one
        byte[] softlyKept = pool.take(16);
        assertThat(softlyKept).isNotSameAs(a);
        assertThat(pool.take(16)).isNotSameAs(a).isNotSameAs(softlyKept); // a fresh array: a was dropped
    }

    @Test
    void theGroupSweepsAtMostTwicePerIdleTime() {
        RunBuffers pool = new RunBuffers(16, 1, new AtomicLong(), 64, idle);
        pool.give(new byte[16]); // strongly held
        pool.give(new byte[16]); // softly kept at 5,000
        clock.set(5_900);
        idle.maybeSweep(clock.get()); // nothing idle yet; the next sweep is due at 6,400
        clock.set(6_100);
        pool.give(new byte[16]); // the first softly kept array is idle now, but no sweep is due
        assertThat(pool.softlyPooled()).isEqualTo(2);
        clock.set(6_400);
        idle.maybeSweep(clock.get());
        assertThat(pool.softlyPooled()).isEqualTo(1);
    }

    @Test
    void anIdleTimeMustBePositive() {
        assertThatThrownBy(() -> new IdleArrays(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
