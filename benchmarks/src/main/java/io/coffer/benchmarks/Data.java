package io.coffer.benchmarks;

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
}
