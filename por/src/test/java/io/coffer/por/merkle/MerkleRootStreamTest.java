package io.coffer.por.merkle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MerkleRootStreamTest {

    @Test
    void leavesInIndexOrderGiveTheTreesRootWithEmptyPositionsAnywhere() {
        SplittableRandom random = new SplittableRandom(5);
        for (int capacity = 1; capacity <= 1024; capacity <<= 1) {
            MerkleTree tree = new MerkleTree(capacity);
            List<byte[]> sealed = new ArrayList<>();
            for (int i = 0; i < capacity; i++) {
                if (random.nextInt(3) == 0) {
                    sealed.add(null); // never written
                    continue;
                }
                byte[] s = new byte[48];
                random.nextBytes(s);
                sealed.add(s);
                tree.set(i, MerkleHash.leaf(s));
            }
            assertThat(MerkleRootStream.of(sealed)).isEqualTo(tree.root());
        }
        assertThat(MerkleRootStream.of(Collections.nCopies(256, null))).isEqualTo(MerkleTree.emptyRoot(256));
    }

    @Test
    void aChangedOrMovedLeafGivesAnotherRoot() {
        SplittableRandom random = new SplittableRandom(6);
        List<byte[]> sealed = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            byte[] s = new byte[48];
            random.nextBytes(s);
            sealed.add(s);
        }
        byte[] root = MerkleRootStream.of(sealed);
        List<byte[]> swapped = new ArrayList<>(sealed);
        swapped.set(3, sealed.get(4));
        swapped.set(4, sealed.get(3));
        assertThat(MerkleRootStream.of(swapped)).isNotEqualTo(root);
        List<byte[]> stale = new ArrayList<>(sealed);
        stale.set(63, null);
        assertThat(MerkleRootStream.of(stale)).isNotEqualTo(root);
    }

    @Test
    void theRootIsRefusedBeforeEveryLeafIsInAndNoLeafIsTakenBeyondTheCapacity() {
        MerkleRootStream stream = new MerkleRootStream(4);
        for (int i = 0; i < 3; i++) {
            stream.add(MerkleHash.EMPTY_LEAF);
        }
        assertThatThrownBy(stream::root).isInstanceOf(IllegalStateException.class);
        stream.add(MerkleHash.EMPTY_LEAF);
        assertThat(stream.root()).isEqualTo(MerkleTree.emptyRoot(4));
        assertThatThrownBy(() -> stream.add(MerkleHash.EMPTY_LEAF)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new MerkleRootStream(6)).isInstanceOf(IllegalArgumentException.class);
    }
}
