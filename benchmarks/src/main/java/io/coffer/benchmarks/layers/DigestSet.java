package io.coffer.benchmarks.layers;

/**
 * A set of 128-bit digests (the first 16 bytes of a SHA-256) in two open-addressing long arrays: 16 bytes per slot
 * instead of the ~100 a {@code HashSet<ByteBuffer>} costs, so millions of sub-chunk ids fit in a small heap. The
 * all-zero digest stands for an empty slot and is kept aside.
 */
final class DigestSet {
    private long[] hi = new long[1 << 16];
    private long[] lo = new long[1 << 16];
    private int size;
    private boolean zero;

    /** Adds the digest of {@code d[0, 16)}; true if it was not there before. */
    boolean add(byte[] d) {
        long h = 0;
        long l = 0;
        for (int i = 0; i < 8; i++) {
            h = h << 8 | (d[i] & 0xff);
            l = l << 8 | (d[8 + i] & 0xff);
        }
        if (h == 0 && l == 0) {
            boolean added = !zero;
            zero = true;
            return added;
        }
        if (2 * (size + 1) > hi.length) {
            grow();
        }
        if (insert(hi, lo, h, l)) {
            size++;
            return true;
        }
        return false;
    }

    int size() {
        return size + (zero ? 1 : 0);
    }

    private static boolean insert(long[] hi, long[] lo, long h, long l) {
        int mask = hi.length - 1;
        int i = (int) (h ^ h >>> 32) & mask;
        while (hi[i] != 0 || lo[i] != 0) {
            if (hi[i] == h && lo[i] == l) {
                return false;
            }
            i = (i + 1) & mask;
        }
        hi[i] = h;
        lo[i] = l;
        return true;
    }

    private void grow() {
        long[] nh = new long[hi.length * 2];
        long[] nl = new long[lo.length * 2];
        for (int i = 0; i < hi.length; i++) {
            if (hi[i] != 0 || lo[i] != 0) {
                insert(nh, nl, hi[i], lo[i]);
            }
        }
        hi = nh;
        lo = nl;
    }
}
