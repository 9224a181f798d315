package io.coffer.por.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.merkle.MerkleHash;
import io.coffer.por.merkle.MerkleTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** U's Merkle tree in a file, beyond the top levels kept in memory: held node writes, their flush, proofs. */
class FileMerkleTreeTest {
    /** Leaves enough for nodes below the 2^14 kept in memory, so paths read the file. */
    private static final int CAPACITY = 1 << 15;

    @TempDir
    Path dir;

    private final SplittableRandom random = new SplittableRandom(19);

    private byte[] hash() {
        return RandomBytes.of(random, MerkleHash.BYTES);
    }

    private static FileMerkleTree build(Path file, MerkleTree leaves) throws IOException {
        return FileMerkleTree.build(file, leaves.capacity(), (from, count, into) -> {
            for (int i = from; i < from + count; i++) {
                into.put(leaves.leaf(i));
            }
        });
    }

    @Test
    void heldWritesGiveTheInMemoryTreesRootAndProofsBeforeAndAfterTheFlush() throws IOException {
        MerkleTree expected = new MerkleTree(CAPACITY);
        try (FileMerkleTree tree = build(dir.resolve("u.merkle"), expected)) {
            int[] indices = new int[40];
            for (int n = 0; n < indices.length; n++) { // a run of adjacent leaves, then scattered ones
                indices[n] = n < 20 ? 7_000 + n : random.nextInt(CAPACITY);
                byte[] leaf = hash();
                expected.set(indices[n], leaf);
                tree.set(indices[n], leaf);
            }
            assertSameTree(tree, expected, indices);
            tree.flush();
            assertSameTree(tree, expected, indices);
        }
    }

    @Test
    void aFlushedFileEqualsOneBuiltFromTheSameLeaves() throws IOException {
        MerkleTree expected = new MerkleTree(CAPACITY);
        Path file = dir.resolve("u.merkle");
        try (FileMerkleTree tree = build(file, expected)) {
            for (int n = 0; n < 300; n++) {
                int index = n % 3 == 0 ? random.nextInt(CAPACITY) : 20_000 + n;
                byte[] leaf = hash();
                expected.set(index, leaf);
                tree.set(index, leaf);
            }
            tree.flush();
        }
        Path rebuilt = dir.resolve("rebuilt.merkle");
        try (FileMerkleTree tree = build(rebuilt, expected)) {
            assertThat(tree.root()).isEqualTo(expected.root());
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(Files.readAllBytes(rebuilt));
    }

    @Test
    void moreHeldNodesThanTheLimitReachTheFileBeforeTheFlush() throws IOException {
        MerkleTree expected = new MerkleTree(1 << 17); // 2^18 nodes: scattered writes hold more than 2^16 of them
        Path file = dir.resolve("u.merkle");
        try (FileMerkleTree tree = build(file, expected)) {
            byte[] before = Files.readAllBytes(file);
            for (int n = 0; n < 30_000; n++) {
                int index = random.nextInt(expected.capacity());
                byte[] leaf = hash();
                expected.set(index, leaf);
                tree.set(index, leaf);
            }
            assertThat(Files.readAllBytes(file)).isNotEqualTo(before);
            assertThat(tree.root()).isEqualTo(expected.root());
        }
    }

    private static void assertSameTree(FileMerkleTree tree, MerkleTree expected, int[] indices) {
        assertThat(tree.root()).isEqualTo(expected.root());
        for (int index : indices) {
            assertThat(tree.proof(index).siblings()).isDeepEqualTo(expected.proof(index).siblings());
        }
        var proofs = tree.proofs(indices);
        for (int p = 0; p < indices.length; p++) {
            assertThat(proofs[p].siblings()).isDeepEqualTo(expected.proof(indices[p]).siblings());
        }
    }
}
