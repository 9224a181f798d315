package io.coffer.por.net;

import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.field.Segments;
import io.coffer.por.merkle.MerkleHash;

/**
 * A PoR server's fixed parameters (n = 2^k blocks of {@code blockBytes}, 2^b blocks per H add) and the bounds every
 * frame is checked against: no field may hold more items than these parameters allow, and no frame may be longer
 * than {@link #maxFrameBytes()}, the longest message these parameters produce (a C rebuild's sealed checksums, for
 * large n; at least 1 MiB).
 */
public record ServerParameters(int k, int batchExponent, int blockBytes) {
    /** k up to 20 (2^20 blocks, a C rebuild frame of 96 MiB): larger frames would need the rebuild split. */
    public static final int MAX_K = 20;
    public static final int MAX_BLOCK_BYTES = 1 << 20;
    /** Samples in one audit challenge: lambda = 128 per level for up to 22 levels fits many times over. */
    public static final int MAX_AUDIT_SAMPLES = 1 << 14;
    static final int MIN_FRAME_BYTES = 1 << 20;
    static final int MAX_PROOF_SIBLINGS = 31;

    public ServerParameters {
        if (k < 1 || k > MAX_K) {
            throw new IllegalArgumentException("k must be in [1, " + MAX_K + "]: " + k);
        }
        if (batchExponent < 0 || batchExponent > k) {
            throw new IllegalArgumentException("the batch exponent must be in [0, " + k + "]: " + batchExponent);
        }
        if (blockBytes < 1 || blockBytes > MAX_BLOCK_BYTES) {
            throw new IllegalArgumentException("the block size must be in [1, " + MAX_BLOCK_BYTES + "]: "
                    + blockBytes);
        }
    }

    public int n() {
        return 1 << k;
    }

    /** H's capacity exponent: its levels are 0..k-b. */
    public int hK() {
        return k - batchExponent;
    }

    /** The widest audit aggregate: a vector of H (a batch of 2^b tagged blocks). */
    public int maxAggregateWidth() {
        return (Segments.count(blockBytes) + 1) << batchExponent;
    }

    /** Bytes of a proven block on the wire, at most. */
    long provenBlockBytes() {
        return 4 + blockBytes + 1 + ChecksumSealer.SEALED_BYTES + proofBytes();
    }

    static long proofBytes() {
        return 4 + 1 + (long) MAX_PROOF_SIBLINGS * MerkleHash.BYTES;
    }

    static long sealedLevelBytes(long partSize) {
        return 8 + 2 * partSize * ChecksumSealer.SEALED_BYTES;
    }

    /**
     * The most vectors of H one deamortised add reads or writes: the new level-0 run and two per level merged
     * ({@link io.coffer.por.code.DeamortizedSchedule}), 1 + 2 (k - b - 1), at least 1.
     */
    public int maxAddVectors() {
        return Math.max(1, 1 + 2 * (hK() - 1));
    }

    /** The longest frame body (version, type, payload, MAC) either side may send. */
    public int maxFrameBytes() {
        long write = 4 + blockBytes + ChecksumSealer.SEALED_BYTES + 1 + sealedLevelBytes(maxAddVectors());
        long rebuildC = 8 + sealedLevelBytes(n()); // a resynchronisation: the epoch and C's checksums
        long sealedU = 4 + (long) n() * (1 + ChecksumSealer.SEALED_BYTES);
        long auditRequest = 4 + (long) MAX_AUDIT_SAMPLES * (BlockAddress.BYTES + 4);
        long auditResponse = 8 + 4L * maxAggregateWidth()
                + (long) MAX_AUDIT_SAMPLES * (1 + ChecksumSealer.SEALED_BYTES);
        long payload = Math.max(Math.max(write, rebuildC), Math.max(sealedU, Math.max(auditRequest, auditResponse)));
        payload = Math.max(payload, Math.max(MIN_FRAME_BYTES, 4 + provenBlockBytes()));
        return Math.toIntExact(2 + payload + SessionMac.BYTES);
    }

    /** Bytes of one leaf proof on the wire: index, the optional sealed checksum, the path. */
    long leafProofBytes() {
        return 4 + 1 + ChecksumSealer.SEALED_BYTES + proofBytes();
    }

    /** The most leaves one LEAVES request may ask for: their answer must fit a frame. */
    public int maxLeafCount() {
        long fit = (maxFrameBytes() - 64L) / leafProofBytes();
        return (int) Math.max(1, Math.min(n(), fit));
    }

    /** The most blocks one decode request may ask for: their answer must fit a frame. */
    public int maxDecodeCount() {
        long fit = (maxFrameBytes() - 64L) / provenBlockBytes();
        return (int) Math.max(1, Math.min(n(), fit));
    }
}
