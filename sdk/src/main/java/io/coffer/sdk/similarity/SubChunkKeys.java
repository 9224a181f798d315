package io.coffer.sdk.similarity;

import io.coffer.sdk.crypto.ChunkKey;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The chunk keys of a cluster's sub-chunks (docs/FORMAT.md, "Layer-mode objects"): {@code K = HMAC-SHA256(clusterKey,
 * "coffer/layer-subchunk-key/v1" || SHA-256(s))}, a synthetic key in the manner of SIV. The layer writer derives them
 * to seal sub-chunks; a compact manifest stores only the cluster key and each sub-chunk's hash, and its decoder derives
 * them again. Not thread-safe: one instance per cluster key and thread.
 */
public final class SubChunkKeys {
    private static final byte[] LABEL = "coffer/layer-subchunk-key/v1".getBytes(StandardCharsets.US_ASCII);
    private final ChunkKey clusterKey;
    private final Mac mac;
    /** {@code LABEL || hash}, so that each key is one {@code doFinal} (one native call under ACCP, not two). */
    private final byte[] input = new byte[LABEL.length + 32];

    public SubChunkKeys(ChunkKey clusterKey) {
        this.clusterKey = clusterKey;
        try {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(clusterKey.rawBytesForCipher(), "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is required of every Java platform", e);
        }
        System.arraycopy(LABEL, 0, input, 0, LABEL.length);
    }

    public ChunkKey clusterKey() {
        return clusterKey;
    }

    /** The key of the sub-chunk whose plaintext has SHA-256 {@code hash}. */
    public ChunkKey keyFor(byte[] hash) {
        if (hash.length != 32) {
            throw new IllegalArgumentException("a SHA-256 hash has 32 bytes, got " + hash.length);
        }
        System.arraycopy(hash, 0, input, LABEL.length, 32);
        return ChunkKey.of(mac.doFinal(input));
    }
}
