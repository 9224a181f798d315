package io.coffer.benchmarks.layers;

import io.coffer.sdk.deflate.DecodeSummary;
import io.coffer.sdk.deflate.PartialDecoder;
import io.coffer.sdk.deflate.PartialEncoder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/** One gzip file in the three spaces: as it is, partially decoded (tokens + side information), decompressed. */
final class LayerSpaces {

    /**
     * The partially decoded form of a file.
     *
     * @param tokens       the token stream ({@link PartialDecoder}); null when decoding failed
     * @param sideInfo     the side information re-encoding needs
     * @param summary      what decoding found; null when it failed
     * @param reproducible whether {@link PartialEncoder} gave back exactly the file's bytes
     * @param reason       why not, when not
     */
    record Partial(byte[] tokens, byte[] sideInfo, DecodeSummary summary, boolean reproducible, String reason) {
    }

    private LayerSpaces() {
    }

    /** The decompressed bytes (all members). */
    static byte[] decompress(byte[] gz) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz), 1 << 16)) {
            return in.readAllBytes();
        }
    }

    /** Decodes partially; with {@code verify}, re-encodes and compares with the original bytes. */
    static Partial partial(byte[] gz, boolean verify) {
        ByteArrayOutputStream tokens = new ByteArrayOutputStream(gz.length * 2);
        ByteArrayOutputStream side = new ByteArrayOutputStream(1 << 12);
        DecodeSummary summary;
        try {
            summary = new PartialDecoder().decode(new ByteArrayInputStream(gz), tokens, side);
        } catch (IOException e) {
            return new Partial(null, null, null, false, "decode: " + e.getMessage());
        }
        byte[] t = tokens.toByteArray();
        byte[] s = side.toByteArray();
        if (!verify) {
            return new Partial(t, s, summary, true, "");
        }
        ByteArrayOutputStream again = new ByteArrayOutputStream(gz.length);
        try {
            new PartialEncoder().encode(new ByteArrayInputStream(t), new ByteArrayInputStream(s), again);
        } catch (IOException e) {
            return new Partial(t, s, summary, false, "re-encode: " + e.getMessage());
        }
        boolean same = Arrays.equals(again.toByteArray(), gz);
        return new Partial(t, s, summary, same, same ? "" : "re-encoded bytes differ");
    }
}
