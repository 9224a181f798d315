package io.coffer.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/** Reproducible benchmark inputs. */
final class Data {
    private Data() {
    }

    /** {@code size} pseudo-random bytes from a {@link SplittableRandom} seeded with {@code seed}. */
    static byte[] random(int size, long seed) {
        byte[] data = new byte[size];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < size; i += 8) {
            long v = random.nextLong();
            for (int k = 0; k < 8 && i + k < size; k++) {
                data[i + k] = (byte) (v >>> (8 * k));
            }
        }
        return data;
    }

    /**
     * {@code size} bytes of reproducible text-like data: lines of words drawn, skewed towards the first ones, from a
     * vocabulary of 512 made-up words, with numbers in between (the generator of the sdk's tests, TestData.text).
     * zstd level 1 stores it in about a third.
     */
    static byte[] text(int size, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        String[] words = new String[512];
        for (int i = 0; i < words.length; i++) {
            char[] w = new char[3 + random.nextInt(8)];
            for (int j = 0; j < w.length; j++) {
                w[j] = (char) ('a' + random.nextInt(26));
            }
            words[i] = new String(w);
        }
        StringBuilder sb = new StringBuilder(size + 64);
        while (sb.length() < size) {
            int n = 4 + random.nextInt(12);
            for (int i = 0; i < n; i++) {
                int r = random.nextInt(words.length);
                sb.append(words[r * r / words.length]).append(i + 1 < n ? ' ' : '.');
            }
            sb.append(' ').append(random.nextInt(100_000)).append('\n');
        }
        return Arrays.copyOf(sb.toString().getBytes(StandardCharsets.US_ASCII), size);
    }

    /** {@link #random} or {@link #text} by name ({@code random}, {@code text}): the benchmarks' {@code data} param. */
    static byte[] of(String kind, int size, long seed) {
        return switch (kind) {
            case "random" -> random(size, seed);
            case "text" -> text(size, seed);
            default -> throw new IllegalArgumentException("data must be random or text, not " + kind);
        };
    }
}
