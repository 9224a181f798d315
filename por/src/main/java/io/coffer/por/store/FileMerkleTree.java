package io.coffer.por.store;

import io.coffer.por.merkle.MerkleHash;
import io.coffer.por.merkle.MerkleProof;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * U's Merkle tree in a file, laid out like {@link io.coffer.por.merkle.MerkleTree} (node i at i * 32 bytes, children
 * 2i and 2i + 1, root 1, leaf j at capacity + j), so memory does not grow with the capacity: only the top levels,
 * 512 KiB at most, are kept in memory too, where paths read them. The file is a cache: {@link #build} rewrites it from
 * the leaves at every open (O(capacity) hashing, sequential I/O), so it needs no crash safety of its own. Not
 * thread-safe. {@link #set}'s node writes are held in memory until {@link #flush} (the storage's, once per batch of
 * writes): a batch's paths share their upper nodes, so each is written once, in runs of adjacent nodes; reads see
 * the held nodes first. A crash before the flush leaves a stale file, which the next open rebuilds anyway.
 */
final class FileMerkleTree implements AutoCloseable {
    /** Supplies leaf hashes in index order, {@code count} at a time, into {@code into} (count * 32 bytes). */
    @FunctionalInterface
    interface Leaves {
        void read(int from, int count, ByteBuffer into) throws IOException;
    }

    private static final int B = MerkleHash.BYTES;
    private static final int CHUNK_NODES = 2048;
    /**
     * Nodes 1 .. 2^14 - 1, the tree's top 14 levels (512 KiB), are kept in memory as well: all of a path but its lowest
     * k - 14 siblings, so a proof reads a few nodes from the file instead of k.
     */
    private static final int TOP_NODES = 1 << 14;
    /** A level's siblings for several paths are read with one read when they lie within this many nodes. */
    private static final int SPAN_NODES = 4096;
    /** Held node writes beyond this many are written at once (about 7 MiB of memory with the map's overhead). */
    private static final int MAX_HELD = 1 << 16;

    private final Path file;
    private final int capacity;
    private final int depth;
    private final FileChannel channel;
    private final ByteBuffer pair = ByteBuffer.allocate(2 * B);
    /** Node i at i * 32 for i below {@link #TOP_NODES} (and below 2 * capacity): a copy of the file's. */
    private final byte[] top;
    /** Nodes set since the last {@link #flush}, by index: what the file does not hold yet. */
    private final Map<Integer, byte[]> held = new HashMap<>();

    private FileMerkleTree(Path file, int capacity, FileChannel channel) {
        this.file = file;
        this.capacity = capacity;
        this.depth = Integer.numberOfTrailingZeros(capacity);
        this.channel = channel;
        this.top = new byte[(int) Math.min(TOP_NODES, 2L * capacity) * B];
    }

    /** Writes the tree of {@code capacity} leaves (a power of two) to {@code file}, level by level from the leaves. */
    static FileMerkleTree build(Path file, int capacity, Leaves leaves) throws IOException {
        if (capacity <= 0 || (capacity & (capacity - 1)) != 0) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        try {
            FileMerkleTree tree = new FileMerkleTree(file, capacity, channel);
            tree.fill(leaves);
            return tree;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private void fill(Leaves leaves) throws IOException {
        int chunk = Math.min(CHUNK_NODES, capacity);
        ByteBuffer children = ByteBuffer.allocate(2 * chunk * B);
        ByteBuffer parents = ByteBuffer.allocate(chunk * B);
        for (int from = 0; from < capacity; from += chunk) {
            parents.clear();
            leaves.read(from, chunk, parents);
            parents.flip();
            write(parents, (long) (capacity + from) * B);
        }
        byte[] left = new byte[B];
        byte[] right = new byte[B];
        for (int level = depth - 1; level >= 0; level--) {
            int first = 1 << level;
            int count = Math.min(chunk, first);
            for (int from = first; from < 2 * first; from += count) {
                children.clear().limit(2 * count * B);
                read(children, 2L * from * B);
                children.flip();
                parents.clear();
                for (int i = 0; i < count; i++) {
                    children.get(left).get(right);
                    parents.put(MerkleHash.node(left, right));
                }
                parents.flip();
                write(parents, (long) from * B);
            }
        }
        read(ByteBuffer.wrap(top), 0);
    }

    byte[] root() {
        return node(1);
    }

    /** Sets leaf {@code index} and rehashes its path to the root; the file gets the new nodes at {@link #flush}. */
    void set(int index, byte[] leafHash) {
        int i = capacity + checkIndex(index);
        setNode(i, leafHash.clone());
        byte[] left = new byte[B];
        byte[] right = new byte[B];
        for (i >>>= 1; i >= 1; i >>>= 1) {
            children(i, left, right);
            setNode(i, MerkleHash.node(left, right));
        }
        if (held.size() > MAX_HELD) {
            flush();
        }
    }

    /** Writes the nodes set since the last flush to the file, a run of adjacent ones with one write. */
    void flush() {
        if (held.isEmpty()) {
            return;
        }
        int[] nodes = held.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
        ByteBuffer run = ByteBuffer.allocate(Math.min(nodes.length, CHUNK_NODES) * B);
        int first = nodes[0];
        for (int n = 0; n < nodes.length; n++) {
            if (run.position() > 0 && (nodes[n] != first + run.position() / B || !run.hasRemaining())) {
                write(run.flip(), (long) first * B);
                run.clear();
                first = nodes[n];
            }
            run.put(held.get(nodes[n]));
        }
        write(run.flip(), (long) first * B);
        held.clear();
    }

    /** Node i's children into {@code left} and {@code right}: from memory where held or in the top, else one read. */
    private void children(int i, byte[] left, byte[] right) {
        long at = 2L * i * B;
        if (at + 2 * B <= top.length) {
            System.arraycopy(top, (int) at, left, 0, B);
            System.arraycopy(top, (int) at + B, right, 0, B);
            return;
        }
        byte[] l = held.get(2 * i);
        byte[] r = held.get(2 * i + 1);
        if (l == null && r == null) {
            pair.clear();
            read(pair, at);
            pair.flip();
            pair.get(left).get(right);
        } else {
            System.arraycopy(l != null ? l : node(2 * i), 0, left, 0, B);
            System.arraycopy(r != null ? r : node(2 * i + 1), 0, right, 0, B);
        }
    }

    private void setNode(int i, byte[] hash) {
        held.put(i, hash);
        if ((long) i * B < top.length) {
            System.arraycopy(hash, 0, top, i * B, B);
        }
    }

    /** The sibling hashes from leaf {@code index} up to (not including) the root. */
    MerkleProof proof(int index) {
        byte[][] siblings = new byte[depth][];
        int i = capacity + checkIndex(index);
        for (int level = 0; level < depth; level++, i >>>= 1) {
            siblings[level] = node(i ^ 1);
        }
        return new MerkleProof(index, siblings);
    }

    /**
     * {@link #proof} of each of {@code indices}: per level below the top ones, the siblings of all the paths with one
     * read where they lie close together (a range of a pack's blocks), the top levels from memory.
     */
    MerkleProof[] proofs(int[] indices) {
        byte[][][] siblings = new byte[indices.length][depth][];
        int[] at = new int[indices.length];
        for (int p = 0; p < indices.length; p++) {
            at[p] = capacity + checkIndex(indices[p]);
        }
        for (int level = 0; level < depth; level++) {
            int lo = Integer.MAX_VALUE;
            int hi = -1;
            for (int p = 0; p < at.length; p++) {
                lo = Math.min(lo, at[p] ^ 1);
                hi = Math.max(hi, at[p] ^ 1);
            }
            ByteBuffer span = null;
            if ((long) lo * B >= top.length && hi - lo < SPAN_NODES && at.length > 1) {
                span = ByteBuffer.allocate((hi - lo + 1) * B);
                read(span, (long) lo * B);
            }
            for (int p = 0; p < at.length; p++) {
                int sibling = at[p] ^ 1;
                byte[] h = held.get(sibling);
                siblings[p][level] = span == null ? node(sibling) : h != null ? h.clone()
                        : Arrays.copyOfRange(span.array(), (sibling - lo) * B, (sibling - lo + 1) * B);
                at[p] >>>= 1;
            }
        }
        MerkleProof[] out = new MerkleProof[indices.length];
        for (int p = 0; p < indices.length; p++) {
            out[p] = new MerkleProof(indices[p], siblings[p]);
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private byte[] node(int i) {
        if ((long) i * B < top.length) {
            return Arrays.copyOfRange(top, i * B, (i + 1) * B);
        }
        byte[] h = held.get(i);
        if (h != null) {
            return h.clone();
        }
        ByteBuffer b = ByteBuffer.allocate(B);
        read(b, (long) i * B);
        return b.array();
    }

    private void read(ByteBuffer into, long position) {
        try {
            long p = position;
            while (into.hasRemaining()) {
                int n = channel.read(into, p);
                if (n < 0) {
                    throw new IllegalStateException("Merkle tree file " + file + " is shorter than the tree");
                }
                p += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot read " + file, e);
        }
    }

    private void write(ByteBuffer from, long position) {
        try {
            long p = position;
            while (from.hasRemaining()) {
                p += channel.write(from, p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PoR storage: cannot write " + file, e);
        }
    }

    private int checkIndex(int index) {
        if (index < 0 || index >= capacity) {
            throw new IndexOutOfBoundsException("leaf " + index + " outside [0, " + capacity + ")");
        }
        return index;
    }
}
