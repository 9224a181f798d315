package io.coffer.por.store;

import java.util.SplittableRandom;

/** The store tests' random content (blocks, sealed checksums, leaf hashes), drawn from a test's seeded random. */
final class RandomBytes {
    private RandomBytes() {
    }

    static byte[] of(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
