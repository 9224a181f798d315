package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecentBlocksTest {
    private static final byte[] ROOT = {1, 2, 3};
    private static final byte[] OTHER_ROOT = {1, 2, 4};

    @Test
    void aBlockIsServedOnlyUnderTheRootItWasVerifiedUnder() {
        RecentBlocks recent = new RecentBlocks(4);
        byte[] block = {9, 9};
        recent.put(7, ROOT, block);

        assertThat(recent.get(7, ROOT.clone())).isSameAs(block);
        assertThat(recent.get(7, OTHER_ROOT)).isNull();
        assertThat(recent.get(8, ROOT)).isNull();
    }

    @Test
    void itHoldsAtMostItsCapacityAndDropsTheLeastRecentlyUsed() {
        RecentBlocks recent = new RecentBlocks(2);
        recent.put(1, ROOT, new byte[] {1});
        recent.put(2, ROOT, new byte[] {2});
        assertThat(recent.get(1, ROOT)).containsExactly(1); // 1 now used after 2
        recent.put(3, ROOT, new byte[] {3});

        assertThat(recent.get(2, ROOT)).isNull();
        assertThat(recent.get(1, ROOT)).containsExactly(1);
        assertThat(recent.get(3, ROOT)).containsExactly(3);
    }
}
