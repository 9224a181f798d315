package io.coffer.por.client;

import io.coffer.por.code.LogState;
import io.coffer.por.merkle.MerkleHash;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Everything the PoR client keeps between operations, O(1) in n: the block size, the log state (k, the writes of this
 * epoch t, whose bits say which levels are filled, and the epoch), the 32-byte master key and the Merkle root over
 * U's sealed checksums.
 *
 * <p>Encoding ({@link #BYTES} bytes, big-endian): "CPOR", version 1, block size (4), log state (16: k, t, epoch),
 * master key (32), root (32), CRC-32C of what precedes (4), so a torn or altered file is refused, not misread.
 */
public record ClientState(int blockBytes, LogState log, byte[] masterKey, byte[] root) {
    public static final int BYTES = 4 + 1 + 4 + LogState.SERIALIZED_BYTES + 32 + MerkleHash.BYTES + 4;
    private static final byte[] MAGIC = {'C', 'P', 'O', 'R'};
    private static final byte VERSION = 1;

    public ClientState {
        if (blockBytes <= 0) {
            throw new IllegalArgumentException("block size must be positive: " + blockBytes);
        }
        if (masterKey.length != 32 || root.length != MerkleHash.BYTES) {
            throw new IllegalArgumentException("master key and root must be 32 bytes");
        }
        masterKey = masterKey.clone();
        root = root.clone();
    }

    @Override
    public byte[] masterKey() {
        return masterKey.clone();
    }

    @Override
    public byte[] root() {
        return root.clone();
    }

    public ClientState with(LogState newLog, byte[] newRoot) {
        return new ClientState(blockBytes, newLog, masterKey, newRoot);
    }

    public byte[] toBytes() {
        ByteBuffer out = ByteBuffer.allocate(BYTES);
        out.put(MAGIC).put(VERSION).putInt(blockBytes).put(log.toBytes()).put(masterKey).put(root);
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, BYTES - 4);
        out.putInt((int) crc.getValue());
        return out.array();
    }

    public static ClientState fromBytes(byte[] bytes) {
        if (bytes.length != BYTES) {
            throw new IllegalArgumentException("PoR client state must be " + BYTES + " bytes, got " + bytes.length);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        byte[] magic = new byte[4];
        in.get(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new IllegalArgumentException("not a PoR client state (bad magic)");
        }
        byte version = in.get();
        if (version != VERSION) {
            throw new IllegalArgumentException("unsupported PoR client state version " + version);
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, BYTES - 4);
        if (ByteBuffer.wrap(bytes, BYTES - 4, 4).getInt() != (int) crc.getValue()) {
            throw new IllegalArgumentException("PoR client state fails its CRC-32C: torn or altered");
        }
        int blockBytes = in.getInt();
        byte[] log = new byte[LogState.SERIALIZED_BYTES];
        in.get(log);
        byte[] key = new byte[32];
        in.get(key);
        byte[] root = new byte[MerkleHash.BYTES];
        in.get(root);
        return new ClientState(blockBytes, LogState.fromBytes(log), key, root);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientState s && blockBytes == s.blockBytes && log.equals(s.log)
                && Arrays.equals(masterKey, s.masterKey) && Arrays.equals(root, s.root);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * blockBytes + log.hashCode()) + Arrays.hashCode(root);
    }

    @Override
    public String toString() {
        return "ClientState[blockBytes=" + blockBytes + ", log=" + log + "]"; // never the key
    }
}
