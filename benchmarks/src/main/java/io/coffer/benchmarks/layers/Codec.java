package io.coffer.benchmarks.layers;

import io.coffer.sdk.crypto.ChunkCompressor;
import java.util.Arrays;

/**
 * Compression before sealing, deterministic (equal input, equal output, so dedup is unchanged): the engine's chunk
 * compressor ({@link ChunkCompressor}, zstd at its default level 1, its head-first early stop for input over 128 KiB),
 * so that the experiment's compressed sizes are those the engine would store. It replaced the JDK's DEFLATE at level 6,
 * which stood in before the engine compressed chunks and took most of each pipeline's time (issue 20). Not
 * thread-safe.
 */
final class Codec {
    private final ChunkCompressor compressor = new ChunkCompressor(ChunkCompressor.DEFAULT_LEVEL);
    private byte[] out = new byte[1 << 16];

    /** The compressed bytes, or null when they would not be smaller than the input (the blob is then stored raw). */
    byte[] compress(byte[] in, int offset, int length) {
        if (out.length < length) {
            out = new byte[length];
        }
        int n = compressor.compress(in, offset, length, out, 0, length - 1);
        return n < 0 ? null : Arrays.copyOf(out, n);
    }

    static String name() {
        return "zstd-" + ChunkCompressor.DEFAULT_LEVEL + " (the engine's ChunkCompressor)";
    }
}
