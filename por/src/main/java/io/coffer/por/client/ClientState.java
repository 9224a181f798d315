package io.coffer.por.client;

import io.coffer.por.checksum.Checksum;
import io.coffer.por.code.LogState;
import io.coffer.por.merkle.MerkleHash;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Everything the PoR client keeps between operations, O(1) in n: the block size; the batch exponent b; H's log state
 * (capacity exponent k - b, the batches t of this epoch, whose bits say which levels are filled, and the epoch, which
 * is also C's); the blocks written into the pending batch and the checksum of that partial batch (so the batch's
 * checksum never needs its blocks again); the 32-byte master key; the Merkle root over U's sealed checksums; whether
 * the current epoch has a paced C rebuild's window ({@code window}: its epoch ended on a server that paces, not on an
 * initialisation, a resync or a resize), which with t gives the switch point; in such a window, until the client
 * has uploaded the next C's sealed checksums ({@link PacedClientPart}), the Merkle root of U as it was at the epoch's
 * end ({@code snapshotRoot}, null otherwise), which the snapshot's checksums it downloads must match.
 *
 * <p>Encoding ({@link #BYTES} bytes, big-endian): "CPOR", version 4, block size (4), b (1), H's log state (16: k - b,
 * t, epoch), pending blocks (4), the pending batch's checksum (20), master key (32), root (32), flags (1: bit 0 the
 * window, bit 1 not capacity-bound, bit 2 the client's part of the window's C rebuild pending; other bits refused),
 * CRC-32C of what precedes (4), so a torn or altered file is refused, not misread. With bit 2 the state is version 5
 * ({@link #BYTES_WITH_SNAPSHOT} bytes): the snapshot's root (32) between the flags and the CRC. Versions 2 and 3
 * ({@link #BYTES_NO_FLAGS} bytes: no flags byte) are read as an epoch without a window, 2 unbound and 3 bound; an
 * unbound state without a window is still written as version 2.
 *
 * <p>{@code capacityBound}: C and H are sealed with k in their associated data
 * ({@link io.coffer.por.checksum.ChecksumSealer#boundTo}); false only for a version 2 state read from an older store,
 * until its next resize or resynchronisation, which reseals C bound and empties H.
 */
public record ClientState(int blockBytes, int batchExponent, LogState hLog, int pending, Checksum pendingChecksum,
        byte[] masterKey, byte[] root, boolean capacityBound, boolean window, byte[] snapshotRoot) {
    public static final int BYTES = 4 + 1 + 4 + 1 + LogState.SERIALIZED_BYTES + 4 + Checksum.BYTES + 32
            + MerkleHash.BYTES + 1 + 4;
    /** The size of a version 2 or 3 state, written before the flags byte. */
    public static final int BYTES_NO_FLAGS = BYTES - 1;
    /** The size of a version 5 state: the client's part of a window's C rebuild pending, with the snapshot's root. */
    public static final int BYTES_WITH_SNAPSHOT = BYTES + MerkleHash.BYTES;
    private static final byte[] MAGIC = {'C', 'P', 'O', 'R'};
    private static final byte VERSION = 4;
    private static final byte SNAPSHOT_VERSION = 5;
    private static final byte BOUND_VERSION = 3;
    private static final byte UNBOUND_VERSION = 2;
    private static final int WINDOW = 1;
    private static final int UNBOUND = 2;
    private static final int CLIENT_PART = 4;

    public ClientState {
        if (blockBytes <= 0) {
            throw new IllegalArgumentException("block size must be positive: " + blockBytes);
        }
        if (batchExponent < 0 || batchExponent > 16 || hLog.k() + batchExponent > 26) {
            throw new IllegalArgumentException("batch exponent out of range: " + batchExponent);
        }
        if (pending < 0 || pending >= 1 << batchExponent) {
            throw new IllegalArgumentException("pending blocks must be in [0, 2^" + batchExponent + "): " + pending);
        }
        if (masterKey.length != 32 || root.length != MerkleHash.BYTES) {
            throw new IllegalArgumentException("master key and root must be 32 bytes");
        }
        if (snapshotRoot != null && (!window || snapshotRoot.length != MerkleHash.BYTES)) {
            throw new IllegalArgumentException("a snapshot's root is 32 bytes, kept only in a window");
        }
        masterKey = masterKey.clone();
        root = root.clone();
        snapshotRoot = snapshotRoot == null ? null : snapshotRoot.clone();
    }

    /** A state without the client's part of a window's C rebuild pending. */
    public ClientState(int blockBytes, int batchExponent, LogState hLog, int pending, Checksum pendingChecksum,
            byte[] masterKey, byte[] root, boolean capacityBound, boolean window) {
        this(blockBytes, batchExponent, hLog, pending, pendingChecksum, masterKey, root, capacityBound, window, null);
    }

    /** A state whose epoch has no window. */
    public ClientState(int blockBytes, int batchExponent, LogState hLog, int pending, Checksum pendingChecksum,
            byte[] masterKey, byte[] root, boolean capacityBound) {
        this(blockBytes, batchExponent, hLog, pending, pendingChecksum, masterKey, root, capacityBound, false);
    }

    /** A state of the current version: C and H sealed with the capacity bound; no window. */
    public ClientState(int blockBytes, int batchExponent, LogState hLog, int pending, Checksum pendingChecksum,
            byte[] masterKey, byte[] root) {
        this(blockBytes, batchExponent, hLog, pending, pendingChecksum, masterKey, root, true);
    }

    /** A fresh state for 2^k blocks, before C is first built. */
    public static ClientState empty(int blockBytes, int k, int batchExponent, byte[] masterKey, byte[] root) {
        return new ClientState(blockBytes, batchExponent, LogState.empty(k - batchExponent), 0, Checksum.zero(),
                masterKey, root);
    }

    /** The capacity exponent: 2^k blocks. */
    public int k() {
        return hLog.k() + batchExponent;
    }

    @Override
    public byte[] masterKey() {
        return masterKey.clone();
    }

    @Override
    public byte[] root() {
        return root.clone();
    }

    /** U's root at the window's epoch end while the client's part of its C rebuild is pending; null otherwise. */
    @Override
    public byte[] snapshotRoot() {
        return snapshotRoot == null ? null : snapshotRoot.clone();
    }

    /** Whether the client still owes the window's next C its sealed checksums ({@link PacedClientPart}). */
    public boolean clientPartPending() {
        return snapshotRoot != null;
    }

    public ClientState with(LogState newHLog, int newPending, Checksum newPendingChecksum, byte[] newRoot) {
        return new ClientState(blockBytes, batchExponent, newHLog, newPending, newPendingChecksum, masterKey, newRoot,
                capacityBound, window, snapshotRoot);
    }

    /** This state with the window's flag set to {@code hasWindow} (a new epoch's), no client part pending. */
    public ClientState withWindow(boolean hasWindow) {
        return new ClientState(blockBytes, batchExponent, hLog, pending, pendingChecksum, masterKey, root,
                capacityBound, hasWindow, null);
    }

    /**
     * This state in a window whose next C's sealed checksums the client owes, over U as it was when its root was
     * {@code snapshot} (a new epoch's, the ended epoch's last root); null once they are all uploaded.
     */
    public ClientState withClientPart(byte[] snapshot) {
        return new ClientState(blockBytes, batchExponent, hLog, pending, pendingChecksum, masterKey, root,
                capacityBound, true, snapshot);
    }

    /** This state once C is resealed with the capacity bound and H emptied (a resize or a resync). */
    public ClientState bound() {
        return new ClientState(blockBytes, batchExponent, hLog, pending, pendingChecksum, masterKey, root, true,
                window, snapshotRoot);
    }

    /**
     * {@link #BYTES} bytes, {@link #BYTES_NO_FLAGS} for an unbound state without a window (version 2),
     * {@link #BYTES_WITH_SNAPSHOT} with the client's part pending (version 5).
     */
    public byte[] toBytes() {
        boolean v2 = !capacityBound && !window;
        int size = v2 ? BYTES_NO_FLAGS : snapshotRoot != null ? BYTES_WITH_SNAPSHOT : BYTES;
        byte version = v2 ? UNBOUND_VERSION : snapshotRoot != null ? SNAPSHOT_VERSION : VERSION;
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(MAGIC).put(version).putInt(blockBytes).put((byte) batchExponent)
                .put(hLog.toBytes()).putInt(pending).put(pendingChecksum.toBytes()).put(masterKey).put(root);
        if (!v2) {
            out.put((byte) ((window ? WINDOW : 0) | (capacityBound ? 0 : UNBOUND)
                    | (snapshotRoot != null ? CLIENT_PART : 0)));
        }
        if (snapshotRoot != null) {
            out.put(snapshotRoot);
        }
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, size - 4);
        out.putInt((int) crc.getValue());
        return out.array();
    }

    public static ClientState fromBytes(byte[] bytes) {
        if (bytes.length != BYTES && bytes.length != BYTES_NO_FLAGS && bytes.length != BYTES_WITH_SNAPSHOT) {
            throw new IllegalArgumentException("PoR client state must be " + BYTES + " bytes, got " + bytes.length);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        byte[] magic = new byte[4];
        in.get(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new IllegalArgumentException("not a PoR client state (bad magic)");
        }
        byte version = in.get();
        int size = version == SNAPSHOT_VERSION ? BYTES_WITH_SNAPSHOT : version == VERSION ? BYTES : BYTES_NO_FLAGS;
        if ((version != SNAPSHOT_VERSION && version != VERSION && version != BOUND_VERSION
                && version != UNBOUND_VERSION) || bytes.length != size) {
            throw new IllegalArgumentException("unsupported PoR client state version " + version + " of "
                    + bytes.length + " bytes");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, size - 4);
        if (ByteBuffer.wrap(bytes, size - 4, 4).getInt() != (int) crc.getValue()) {
            throw new IllegalArgumentException("PoR client state fails its CRC-32C: torn or altered");
        }
        int blockBytes = in.getInt();
        int batchExponent = in.get();
        byte[] log = new byte[LogState.SERIALIZED_BYTES];
        in.get(log);
        int pending = in.getInt();
        byte[] sum = new byte[Checksum.BYTES];
        in.get(sum);
        byte[] key = new byte[32];
        in.get(key);
        byte[] root = new byte[MerkleHash.BYTES];
        in.get(root);
        int flags = version >= VERSION ? in.get() : version == UNBOUND_VERSION ? UNBOUND : 0;
        if ((flags & ~(WINDOW | UNBOUND | CLIENT_PART)) != 0
                || ((flags & CLIENT_PART) != 0) != (version == SNAPSHOT_VERSION)) {
            throw new IllegalArgumentException("PoR client state has unknown flags " + flags);
        }
        byte[] snapshot = null;
        if (version == SNAPSHOT_VERSION) {
            snapshot = new byte[MerkleHash.BYTES];
            in.get(snapshot);
        }
        return new ClientState(blockBytes, batchExponent, LogState.fromBytes(log), pending, Checksum.fromBytes(sum),
                key, root, (flags & UNBOUND) == 0, (flags & WINDOW) != 0, snapshot);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientState s && blockBytes == s.blockBytes && batchExponent == s.batchExponent
                && hLog.equals(s.hLog) && pending == s.pending && pendingChecksum.equals(s.pendingChecksum)
                && Arrays.equals(masterKey, s.masterKey) && Arrays.equals(root, s.root)
                && capacityBound == s.capacityBound && window == s.window
                && Arrays.equals(snapshotRoot, s.snapshotRoot);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * blockBytes + hLog.hashCode()) + pending) + Arrays.hashCode(root);
    }

    @Override
    public String toString() {
        return "ClientState[blockBytes=" + blockBytes + ", b=" + batchExponent + ", hLog=" + hLog + ", pending="
                + pending + (capacityBound ? "" : ", unbound") + ", window=" + window
                + (snapshotRoot == null ? "" : ", client part pending") + "]"; // never the key
    }
}
