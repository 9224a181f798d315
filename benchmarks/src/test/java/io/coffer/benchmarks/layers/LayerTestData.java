package io.coffer.benchmarks.layers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/** Generated inputs of the layer benchmarks' tests: text-like bytes, compressible as tarballs are, and their gzip. */
final class LayerTestData {
    private LayerTestData() {}

    /** Words of a small vocabulary, a line break now and then; the same bytes for the same seed. */
    static byte[] text(long seed, int size) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder(size + 16);
        while (sb.length() < size) {
            sb.append("token").append(r.nextInt(5000)).append(r.nextInt(8) == 0 ? '\n' : ' ');
        }
        return sb.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }

    /** gzip of {@code data} at its default level. */
    static byte[] gzip(byte[] data) throws IOException {
        return gzip(data, Deflater.DEFAULT_COMPRESSION);
    }

    /** gzip of {@code data} at deflate {@code level}. */
    static byte[] gzip(byte[] data, int level) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(out) {
            {
                def.setLevel(level);
            }
        }) {
            gz.write(data);
        }
        return out.toByteArray();
    }
}
