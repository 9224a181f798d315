package io.coffer.por.checksum;

import io.coffer.por.field.Segments;
import io.coffer.por.field.Zp;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret matrix M (ROWS x width over Z_p) of the homomorphic checksum sigma = M * B (section 5.3), expanded from a
 * 32-byte key with AES-256-CTR so the client stores the key, not the matrix. Entries are uniform in Z_p: 31-bit
 * words of the key stream at or above p are skipped (rejection sampling, about 1 word in 16).
 *
 * <p>{@link #checksum} takes a block as Z_p elements (data segments or code vectors); width is the number of
 * elements of a block of the store ({@link io.coffer.por.field.Segments#count}). The rows are computed by
 * {@link ChecksumKernels}' choice: the Vector API's kernel where the JVM runs it natively, else a scalar loop.
 */
public final class ChecksumKey {
    private static final int WORDS_PER_CHUNK = 4096;

    private final int width;

    /** Row-major: m[row * width + column]. */
    private final int[] m;

    private ChecksumKey(int width, int[] m) {
        this.width = width;
        this.m = m;
    }

    public static ChecksumKey derive(byte[] key, int width) {
        if (key.length != 32) {
            throw new IllegalArgumentException("checksum key must be 32 bytes, got " + key.length);
        }
        if (width <= 0) {
            throw new IllegalArgumentException("width must be positive: " + width);
        }
        int[] m = new int[Math.multiplyExact(Checksum.ROWS, width)];
        try {
            Cipher ctr = Cipher.getInstance("AES/CTR/NoPadding");
            ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(new byte[16]));
            byte[] zeros = new byte[WORDS_PER_CHUNK * 4];
            int filled = 0;
            while (filled < m.length) {
                byte[] stream = ctr.update(zeros);
                for (int i = 0; i + 4 <= stream.length && filled < m.length; i += 4) {
                    int word = ((stream[i] & 0x7f) << 24) | ((stream[i + 1] & 0xff) << 16)
                            | ((stream[i + 2] & 0xff) << 8) | (stream[i + 3] & 0xff);
                    if (word < Zp.P) {
                        m[filled++] = word;
                    }
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR unavailable", e);
        }
        return new ChecksumKey(width, m);
    }

    public int width() {
        return width;
    }

    /**
     * Column {@code c} of M, i.e. sigma of the unit vector e_c: sigma of a vector that is zero but for element c is
     * this times that element, in O(ROWS) instead of O(width) (the checksum of a never-written, tagged block).
     */
    public Checksum column(int c) {
        if (c < 0 || c >= width) {
            throw new IndexOutOfBoundsException("column " + c + " outside [0, " + width + ")");
        }
        int[] rows = new int[Checksum.ROWS];
        for (int r = 0; r < Checksum.ROWS; r++) {
            rows[r] = m[r * width + c];
        }
        return Checksum.of(rows);
    }

    /** sigma = M * block; {@code block} holds {@link #width()} elements of Z_p. */
    public Checksum checksum(int[] block) {
        if (block.length != width) {
            throw new IllegalArgumentException("block has " + block.length + " elements, the key " + width);
        }
        return checksum(block, 0);
    }

    /**
     * M's columns {@code offset .. offset + block.length - 1} times {@code block}: the checksum of a vector that is
     * {@code block} at that offset and zero elsewhere. A batch's checksum is the sum of its blocks' at their offsets,
     * so it can be accumulated one block at a time.
     */
    public Checksum checksum(int[] block, int offset) {
        if (offset < 0 || offset > width - block.length) {
            throw new IllegalArgumentException(block.length + " elements at column " + offset + " exceed width "
                    + width);
        }
        if (!allInField(block)) {
            throw new IllegalArgumentException("block element out of Z_p: " + firstOutside(block));
        }
        ChecksumKernel kernel = ChecksumKernels.chosen();
        int[] rows = new int[Checksum.ROWS];
        for (int r = 0; r < Checksum.ROWS; r++) {
            rows[r] = kernel.dot(m, r * width + offset, block);
        }
        return Checksum.of(rows);
    }

    /**
     * sigma of the segments of {@code bytes} ({@link Segments#fromBytes}) at columns {@code offset ..} and zero
     * elsewhere: what {@link #checksum(int[], int)} gives for them, without an array of them where the kernel reads
     * them from the bytes (a verified read's check, docs/BENCHMARKS.md "The gateway with PoR on and off"). Segments
     * are below 2^30, so no element check is needed.
     */
    public Checksum checksumOfSegments(byte[] bytes, int offset) {
        int elements = Segments.count(bytes.length);
        if (offset < 0 || offset > width - elements) {
            throw new IllegalArgumentException(elements + " segments at column " + offset + " exceed width " + width);
        }
        int[] rows = new int[Checksum.ROWS];
        ChecksumKernels.chosen().dotSegments(m, width, offset, bytes, rows);
        return Checksum.of(rows);
    }

    /**
     * One block's checksums under several keys, {@code keys[i]}'s at columns {@code offsets[i] ..} (a put's sums under
     * M and M_H): each from the bytes where the chosen kernel reads them so (twice from the bytes costs less than once
     * into an array, docs/BENCHMARKS.md porbytes), else over one conversion shared by all keys.
     */
    public static Checksum[] ofSegments(byte[] bytes, ChecksumKey[] keys, int[] offsets) {
        if (keys.length != offsets.length) {
            throw new IllegalArgumentException(keys.length + " keys, " + offsets.length + " offsets");
        }
        Checksum[] sums = new Checksum[keys.length];
        boolean fromBytes = ChecksumKernels.chosen().readsSegmentsFromBytes();
        int[] segments = fromBytes ? null : Segments.fromBytes(bytes, 0, bytes.length);
        for (int i = 0; i < keys.length; i++) {
            sums[i] = fromBytes ? keys[i].checksumOfSegments(bytes, offsets[i]) : keys[i].checksum(segments, offsets[i]);
        }
        return sums;
    }

    /**
     * Whether every element is in [0, p): one pass over the block before the rows, with int operations only, which
     * C2 vectorises (an element is outside iff it or p - 1 - it is negative). Checked in the row loop instead, the
     * compare cost as much as the products (docs/BENCHMARKS.md, porvec).
     */
    private static boolean allInField(int[] block) {
        int signs = 0;
        for (int a : block) {
            signs |= a | (Zp.P - 1 - a);
        }
        return signs >= 0;
    }

    private static String firstOutside(int[] block) {
        for (int c = 0; c < block.length; c++) {
            if (Integer.compareUnsigned(block[c], Zp.P) >= 0) {
                return "at " + c + ": " + block[c];
            }
        }
        return "none";
    }
}
