package io.coffer.por.merkle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MerkleTreeTest {
    @Test
    void anEmptyTreeHasTheEmptyRootAndItsLeavesVerify() {
        MerkleTree tree = new MerkleTree(64);
        assertThat(tree.root()).isEqualTo(MerkleTree.emptyRoot(64));
        for (int i = 0; i < 64; i++) {
            assertThat(tree.proof(i).rootFor(MerkleHash.EMPTY_LEAF)).isEqualTo(tree.root());
        }
    }

    @Test
    void aClientFollowingUpdatesWithProofsKeepsTheServersRoot() {
        MerkleTree tree = new MerkleTree(256);
        byte[] clientRoot = MerkleTree.emptyRoot(256);
        SplittableRandom random = new SplittableRandom(1);
        for (int step = 0; step < 1000; step++) {
            int index = random.nextInt(256);
            MerkleProof proof = tree.proof(index);
            assertThat(proof.rootFor(tree.leaf(index))).isEqualTo(clientRoot);
            byte[] sealed = new byte[48];
            random.nextBytes(sealed);
            byte[] leaf = MerkleHash.leaf(sealed);
            clientRoot = proof.rootFor(leaf);
            tree.set(index, leaf);
            assertThat(tree.root()).isEqualTo(clientRoot);
        }
    }

    @Test
    void aWrongLeafOrSiblingOrIndexGivesAnotherRoot() {
        MerkleTree tree = new MerkleTree(16);
        for (int i = 0; i < 16; i++) {
            tree.set(i, MerkleHash.leaf(new byte[] {(byte) i}));
        }
        MerkleProof proof = tree.proof(5);
        byte[] leaf = tree.leaf(5);
        assertThat(proof.rootFor(leaf)).isEqualTo(tree.root());
        assertThat(proof.rootFor(tree.leaf(6))).isNotEqualTo(tree.root());
        assertThat(new MerkleProof(4, proof.siblings()).rootFor(leaf)).isNotEqualTo(tree.root());
        byte[][] siblings = proof.siblings();
        siblings[2] = tree.leaf(0);
        assertThat(new MerkleProof(5, siblings).rootFor(leaf)).isNotEqualTo(tree.root());
    }

    @Test
    void aLeafCannotPassForAnInnerNode() {
        byte[] a = MerkleHash.leaf(new byte[] {1});
        byte[] b = MerkleHash.leaf(new byte[] {2});
        byte[] concatenated = new byte[64];
        System.arraycopy(a, 0, concatenated, 0, 32);
        System.arraycopy(b, 0, concatenated, 32, 32);
        assertThat(MerkleHash.leaf(concatenated)).isNotEqualTo(MerkleHash.node(a, b));
    }

    @Test
    void badArgumentsAreRefused() {
        assertThatThrownBy(() -> new MerkleTree(12)).isInstanceOf(IllegalArgumentException.class);
        MerkleTree tree = new MerkleTree(8);
        assertThatThrownBy(() -> tree.proof(8)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> tree.set(0, new byte[31])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MerkleProof(8, new byte[3][32])).isInstanceOf(IllegalArgumentException.class);
    }
}
