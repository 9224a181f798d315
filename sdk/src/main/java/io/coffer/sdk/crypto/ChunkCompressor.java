package io.coffer.sdk.crypto;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;

/**
 * The compression step of chunk format 3 (docs/FORMAT.md, "Chunks"): a chunk's zstd frames (its head, then the rest),
 * made in one attempt that ends early when the head does not compress, kept only when they pay, and their bounded
 * inverse. Deterministic: a frame depends only on the chunk's bytes, the
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
    /** The part of a chunk compressed first, on its own, to find out early whether compression pays (one zstd block). */
    public static final int HEAD = 128 << 10;

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
     * Compresses {@code length} bytes of {@code in} into {@code out} from {@code outOffset} if the result takes at most
     * {@code limit} bytes; returns its length, or -1 when it does not fit (the caller stores the chunk raw).
     *
     * <p>The result is one zstd frame of the chunk's first {@link #HEAD} bytes (all of it, if shorter) followed by one
     * frame of the rest. The head is compressed first and must save its own share of the margin (a 32nd), else the
     * attempt ends there: an incompressible chunk (media, archives, ciphertext) costs zstd an eighth of a 1 MiB chunk,
     * not all of it, which keeps PUT of such data within a few percent of PUT without compression (docs/DECISIONS.md,
     * "Chunk compression"). Each byte is still compressed at most once, and zstd stops as soon as its output passes the
     * limit. The price: a chunk whose first 128 KiB do not compress is stored raw even if the rest would.
     */
    public int compress(byte[] in, int offset, int length, byte[] out, int outOffset, int limit) {
        int head = Math.min(length, HEAD);
        int headLimit = head == length ? limit : Math.min(limit, head - Math.max(1, head / 32));
        int first = frame(in, offset, head, out, outOffset, headLimit);
        if (first < 0 || head == length) {
            return first;
        }
        int rest = frame(in, offset + head, length - head, out, outOffset + first, limit - first);
        return rest < 0 ? -1 : first + rest;
    }

    private int frame(byte[] in, int offset, int length, byte[] out, int outOffset, int limit) {
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
     * Decompresses the frames in {@code in[offset, offset + length)} (zstd decodes concatenated frames as one stream)
     * into exactly {@code plainLength} bytes of {@code out}. Never writes or allocates beyond them: a frame that claims or yields another size, or does not decode, is
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
