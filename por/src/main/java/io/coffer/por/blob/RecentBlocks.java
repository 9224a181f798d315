package io.coffer.por.blob;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The blocks of U that reads verified last, each with the Merkle root it was verified under: a read that meets the
 * same block under the same root (adjacent ranges of a pack share the block between them) takes it from here instead
 * of checking it again. The root commits to every sealed checksum of U, so an equal root means the block verified
 * then is what U holds now; any write changes the root and so retires the entry. Thread-safe; at most
 * {@code capacity} blocks.
 */
final class RecentBlocks {
    private record Verified(byte[] root, byte[] block) {}

    private final Map<Integer, Verified> blocks;

    RecentBlocks(int capacity) {
        this.blocks = new LinkedHashMap<>(capacity * 2, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, Verified> eldest) {
                return size() > capacity;
            }
        };
    }

    /** U[index] as verified under {@code root}, or null. The caller must not change the array. */
    synchronized byte[] get(int index, byte[] root) {
        Verified v = blocks.get(index);
        return v != null && Arrays.equals(v.root(), root) ? v.block() : null;
    }

    /** Records that {@code block} is U[index] verified under {@code root}; the caller no longer changes either. */
    synchronized void put(int index, byte[] root, byte[] block) {
        blocks.put(index, new Verified(root, block));
    }
}
