package io.coffer.sdk.crypto;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;

/**
 * The compression step of chunk format 3 (docs/FORMAT.md, "Chunks"): one zstd frame per chunk, made in one attempt
 * and kept only when it pays, and its bounded inverse. Deterministic: a frame depends only on the chunk's bytes, the
 * level and the zstd version (single-threaded, no dictionary, no checksum: the GCM tag is the integrity check).
 *
 * <p>Instances hold native zstd contexts and are not thread-safe; {@link ChunkCipher} keeps one per instance.
 */
public final class ChunkCompressor {
    /** The level chosen by measurement (docs/DECISIONS.md, "Chunk compression"). */
    public static final int DEFAULT_LEVEL = 1;
    /** Levels the engine accepts: zstd's fast negative levels up to its strongest. */
    public static final int MIN_LEVEL = -7;
    public static final int MAX_LEVEL = 19;

    private final int level;
    private final ZstdCompressCtx compressor;
    private final ZstdDecompressCtx decompressor;

    public ChunkCompressor(int level) {
        if (level < MIN_LEVEL || level > MAX_LEVEL || level == 0) {
            throw new IllegalArgumentException("zstd level must be in [" + MIN_LEVEL + ", " + MAX_LEVEL
                    + "] and not 0, got " + level);
        }
        this.level = level;
        this.compressor = new ZstdCompressCtx().setLevel(level).setChecksum(false).setContentSize(true)
                .setDictID(false).setWorkers(0);
        this.decompressor = new ZstdDecompressCtx();
    }

    public int level() {
        return level;
    }

    /**
     * Compresses {@code length} bytes of {@code in} into {@code out} from {@code outOffset} if the frame takes at most
     * {@code limit} bytes; returns its length, or -1 when it does not fit (the caller stores the chunk raw). zstd stops
     * with an error as soon as its output passes the limit, so an incompressible chunk costs one attempt, no more.
     */
    public int compress(byte[] in, int offset, int length, byte[] out, int outOffset, int limit) {
        if (limit <= 0) {
            return -1;
        }
        try {
            return compressor.compressByteArray(out, outOffset, limit, in, offset, length);
        } catch (ZstdException e) {
            if (e.getErrorCode() == Zstd.errDstSizeTooSmall()) {
                return -1;
            }
            throw new IllegalStateException("zstd compression failed: " + e.getMessage(), e);
        }
    }

    /**
     * Decompresses the frame in {@code in[offset, offset + length)} into exactly {@code plainLength} bytes of {@code
     * out}. Never writes or allocates beyond them: a frame that claims or yields another size, or does not decode, is
     * damage.
     *
     * @throws ChunkIntegrityException if the frame is not one of exactly {@code plainLength} bytes
     */
    public void decompress(byte[] in, int offset, int length, byte[] out, int outOffset, int plainLength)
            throws ChunkIntegrityException {
        int n;
        try {
            n = decompressor.decompressByteArray(out, outOffset, plainLength, in, offset, length);
        } catch (ZstdException e) {
            throw new ChunkIntegrityException("Chunk does not decompress: " + e.getMessage());
        }
        if (n != plainLength) {
            throw new ChunkIntegrityException("Chunk decompresses to " + n + " bytes, not " + plainLength + ".");
        }
    }
}
