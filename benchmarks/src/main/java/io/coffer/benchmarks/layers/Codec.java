package io.coffer.benchmarks.layers;

import java.util.Arrays;
import java.util.zip.Deflater;

/**
 * Compression before sealing, deterministic (equal input, equal output, so dedup is unchanged): raw DEFLATE from the
 * JDK at level 6. It stands in for the engine's chunk compressor (zstd, another helper's work) so that this experiment
 * builds on its own; zstd would change the compressed sizes a little, not what is deduplicated. Not thread-safe.
 */
final class Codec {
    private final Deflater deflater = new Deflater(6, true);
    private byte[] out = new byte[1 << 16];

    /** The compressed bytes, or null when they would not be smaller than the input (the blob is then stored raw). */
    byte[] compress(byte[] in, int offset, int length) {
        deflater.reset();
        deflater.setInput(in, offset, length);
        deflater.finish();
        if (out.length < length + 64) {
            out = new byte[length + 64];
        }
        int n = 0;
        while (!deflater.finished()) {
            n += deflater.deflate(out, n, out.length - n);
            if (n == out.length) {
                return null;
            }
        }
        return n < length ? Arrays.copyOf(out, n) : null;
    }

    static String name() {
        return "deflate-6 (JDK)";
    }
}
