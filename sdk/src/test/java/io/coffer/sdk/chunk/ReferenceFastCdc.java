package io.coffer.sdk.chunk;

/**
 * Byte-at-a-time FastCDC (fastcdc-rs {@code v2016} rules), written for clarity, to cross-check the optimized
 * {@link FastCdcChunker} and to reproduce the v2016 gear hashes.
 */
final class ReferenceFastCdc {

    private ReferenceFastCdc() {
    }

    /** Returns {@code {length, gearHash}} of the chunk starting at {@code data[offset]}. */
    static long[] cut(byte[] data, int offset, int length, int min, int avg, int max, int level, long seed) {
        if (length <= min) {
            return new long[] {length, 0L};
        }
        int remaining = Math.min(length, max);
        int center = Math.min(avg, remaining);
        int bits = (int) Math.round(Math.log(avg) / Math.log(2));
        long maskS = FastCdcChunker.MASKS[bits + level];
        long maskL = FastCdcChunker.MASKS[bits - level];
        long hash = 0;
        int index = min;
        while (index < center) {
            hash = (hash << 1) + (FastCdcChunker.GEAR[data[offset + index] & 0xff] ^ seed);
            if ((hash & maskS) == 0) {
                return new long[] {index, hash};
            }
            index++;
        }
        while (index < remaining) {
            hash = (hash << 1) + (FastCdcChunker.GEAR[data[offset + index] & 0xff] ^ seed);
            if ((hash & maskL) == 0) {
                return new long[] {index, hash};
            }
            index++;
        }
        return new long[] {remaining, hash};
    }
}
