package io.coffer.sdk.similarity;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Test data: text-like chunks, near-identical variants of them, and unrelated ones, all from fixed seeds. */
final class SyntheticChunks {
    private static final String[] WORDS = ("import export function return const let var class extends interface "
            + "type string number boolean null undefined if else for while switch case break continue new this "
            + "def self lambda yield async await from module require package public private static final void")
            .split(" ");

    private SyntheticChunks() {
    }

    /** {@code size} bytes of source-code-like text from {@code seed}. */
    static byte[] text(long seed, int size) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder(size + 64);
        while (sb.length() < size) {
            sb.append(WORDS[r.nextInt(WORDS.length)]);
            sb.append(r.nextInt(10) == 0 ? "\n" : r.nextInt(7) == 0 ? "(" + r.nextInt(1000) + "); " : " ");
        }
        byte[] b = sb.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[size];
        System.arraycopy(b, 0, out, 0, size);
        return out;
    }

    /** {@code base} with {@code edits} runs of {@code runLength} bytes overwritten at positions from {@code seed}. */
    static byte[] edited(byte[] base, long seed, int edits, int runLength) {
        Random r = new Random(seed);
        byte[] out = base.clone();
        for (int e = 0; e < edits; e++) {
            int at = r.nextInt(out.length - runLength);
            for (int i = 0; i < runLength; i++) {
                out[at + i] = (byte) ('A' + r.nextInt(26));
            }
        }
        return out;
    }
}
