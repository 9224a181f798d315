package io.coffer.sdk.similarity;

import java.util.Arrays;
import java.util.Objects;

/**
 * Finesse (Zhang et al., FAST 2019) as SimEnc's LSH-MLE baseline uses it: a rolling hash over a 48-byte window, the
 * chunk cut into 12 equal regions whose maximal window hash is a feature, and 3 super-features built by Finesse's
 * feature locality: the regions form 4 groups of 3 neighbours, each group's features are sorted, and super-feature j
 * combines the j-th largest feature of every group. Similar chunks (a few edits) keep most regions' maxima, so they
 * share super-features.
 *
 * <p>The rolling hash is a polynomial hash modulo 2^64 (Rabin-Karp style; the paper's "Rabin fingerprint" serves the
 * same purpose, a window hash that rolls in O(1) per byte), compared after a multiplicative mix so that its top bits
 * depend on every byte of the window.
 *
 * <p>The same pass gives the Hamming-space code standing in for the paper's learned semantic hash: a one-permutation
 * MinHash over all windows (the top bits of a window's mixed hash pick one of {@code codeBits} bins, each bin keeps
 * its smallest hash) and one bit of a re-mix of each bin's minimum. Two chunks of resemblance J agree on a bin's minimum with
 * probability about J, so their expected Hamming distance is about {@code codeBits * (1 - J) / 2}.
 */
public final class FinesseSketcher implements Sketcher {
    public static final int DEFAULT_WINDOW = 48;
    public static final int DEFAULT_FEATURES = 12;
    public static final int DEFAULT_SUPER_FEATURES = 3;
    public static final int DEFAULT_CODE_BITS = 256;
    private static final long P = 0x100000001B3L;
    private static final long MIX = 0x9E3779B97F4A7C15L;

    private final int window;
    private final int features;
    private final int superFeatures;
    private final int codeBits;
    private final int binShift;
    private final long[] outTable = new long[256];

    /** The paper's setting: 48-byte window, 12 features, 3 super-features; a 256-bit code. */
    public FinesseSketcher() {
        this(DEFAULT_WINDOW, DEFAULT_FEATURES, DEFAULT_SUPER_FEATURES, DEFAULT_CODE_BITS);
    }

    /**
     * @param features      a multiple of {@code superFeatures}
     * @param codeBits      a power of two from 64 to 65536
     */
    public FinesseSketcher(int window, int features, int superFeatures, int codeBits) {
        if (window < 1 || superFeatures < 1 || features < superFeatures || features % superFeatures != 0) {
            throw new IllegalArgumentException("window " + window + ", " + features + " features, " + superFeatures
                    + " super-features: need window >= 1 and features a positive multiple of super-features");
        }
        if (codeBits < 64 || codeBits > 65536 || Integer.bitCount(codeBits) != 1) {
            throw new IllegalArgumentException("code bits must be a power of two in [64, 65536], not " + codeBits);
        }
        this.window = window;
        this.features = features;
        this.superFeatures = superFeatures;
        this.codeBits = codeBits;
        this.binShift = 64 - Integer.numberOfTrailingZeros(codeBits);
        long pw = 1;
        for (int i = 0; i < window; i++) {
            pw *= P;
        }
        for (int b = 0; b < 256; b++) {
            outTable[b] = b * pw;
        }
    }

    @Override
    public ChunkSketch sketch(byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, data.length);
        long[] feature = new long[features];
        Arrays.fill(feature, Long.MIN_VALUE);
        long[] binMin = new long[codeBits];
        Arrays.fill(binMin, Long.MAX_VALUE);
        // a bin is empty while its minimum is MAX_VALUE, unless a window hashed to MAX_VALUE itself (bin of maxBin)
        boolean maxSeen = false;
        int region = Math.max(1, length / features);
        long h = 0;
        int end = offset + length;
        // the first window - 1 bytes only fill the window; no hash is compared before it is full
        int full = (int) Math.min(end, (long) offset + window - 1);
        int i = offset;
        for (; i < full; i++) {
            h = h * P + (data[i] & 0xff);
        }
        if (i < end) {
            h = h * P + (data[i] & 0xff);
        }
        for (int f = 0; f < features && i < end; f++) {
            int regionEnd = f == features - 1 ? end : Math.min(end, offset + (f + 1) * region);
            long max = Long.MIN_VALUE;
            if (i == full && i < regionEnd) {
                // the first full window: its last byte is in h already, nothing leaves it
                long v = mix(h);
                max = v;
                int bin = (int) (v >>> binShift);
                if (v <= binMin[bin]) {
                    binMin[bin] = v;
                    maxSeen |= v == Long.MAX_VALUE;
                }
                i++;
            }
            for (; i < regionEnd; i++) {
                // the byte leaving is subtracted off the multiply chain, which alone carries h from byte to byte
                h = h * P + ((data[i] & 0xff) - outTable[data[i - window] & 0xff]);
                long v = mix(h);
                if (v > max) {
                    max = v;
                }
                int bin = (int) (v >>> binShift);
                if (v <= binMin[bin]) {
                    binMin[bin] = v;
                    maxSeen |= v == Long.MAX_VALUE;
                }
            }
            feature[f] = max;
        }
        return new ChunkSketch(superFeatures(feature), code(binMin, maxSeen));
    }

    private long[] superFeatures(long[] feature) {
        int groupSize = superFeatures;
        int groups = features / superFeatures;
        long[][] sorted = new long[groups][];
        for (int g = 0; g < groups; g++) {
            long[] group = Arrays.copyOfRange(feature, g * groupSize, (g + 1) * groupSize);
            Arrays.sort(group);
            sorted[g] = group;
        }
        long[] sf = new long[superFeatures];
        for (int j = 0; j < superFeatures; j++) {
            long s = 0x243F6A8885A308D3L + j;
            for (int g = 0; g < groups; g++) {
                s = (s ^ sorted[g][groupSize - 1 - j]) * MIX;
                s ^= s >>> 29;
            }
            sf[j] = s;
        }
        return sf;
    }

    private long[] code(long[] binMin, boolean maxSeen) {
        long[] code = new long[codeBits / 64];
        int maxBin = (int) (Long.MAX_VALUE >>> binShift);
        for (int b = 0; b < codeBits; b++) {
            boolean seen = binMin[b] != Long.MAX_VALUE || (b == maxBin && maxSeen);
            // the minimum's own high bits are biased towards 0 (it is a minimum): take the top bit of a re-mix
            if (seen && fmix(binMin[b]) < 0) {
                code[b >>> 6] |= 1L << (b & 63);
            }
        }
        return code;
    }

    /** The window hash as features and bins compare it: a multiplicative mix, so its top bits depend on every byte. */
    private static long mix(long h) {
        long v = h * MIX;
        v ^= v >>> 32;
        return v * MIX;
    }

    /** MurmurHash3's 64-bit finalizer. */
    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        return k ^ (k >>> 33);
    }

    @Override
    public int codeBits() {
        return codeBits;
    }

    @Override
    public String name() {
        return "finesse-" + features + "x" + superFeatures + "-w" + window + "-minhash" + codeBits;
    }
}
