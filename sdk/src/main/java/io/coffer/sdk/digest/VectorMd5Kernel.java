package io.coffer.sdk.digest;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.XOR;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * MD5 of {@link #LANES} streams at once, a stream per int lane of 256-bit vectors (the multi-buffer form: MD5 is
 * sequential within a stream, so the parallelism is across streams; docs/DECISIONS.md, "MD5 of several bodies at
 * once"). Each of RFC 1321's 64 steps is written out: C2 keeps the vectors in registers only in straight-line code (a
 * loop over the steps with the round's function chosen inside ran at a fifteenth of the speed; the steps split into
 * a method per round, the states passing through an array, at a third). Rotations are two shifts and an or, which C2
 * compiles for 256- and 512-bit vectors alike (its rotate for 512-bit int vectors fell back to Java). No vector
 * crosses a call (the states go through an array every block): a call with the vectors when a lane was done made C2
 * deoptimise the loop, which then ran on in the Vector API's Java fallbacks, allocating for every operation (seen in
 * an allocation profile of the gateway). The message words are moved into lane order by scalar
 * code, {@link #LANES} x 16 ints per block. Loaded only once the incubator module is known to be there
 * ({@link Md5Lanes#createIfSupported}).
 */
final class VectorMd5Kernel {
    static final VectorSpecies<Integer> INTS = IntVector.SPECIES_256;
    static final int LANES = 8;

    /** Message words of one block per lane, word-major: word w of lane l at {@code w * LANES + l}. */
    private final int[] words = new int[16 * LANES];
    /** The lanes' states: A of lane l at {@code l}, B at {@code LANES + l}, C, D after. */
    private final int[] states = new int[4 * LANES];

    /** The width of the vectors the JVM prefers here: below 256 the lanes are not used. */
    static int preferredBits() {
        return IntVector.SPECIES_PREFERRED.vectorBitSize();
    }

    /**
     * Takes {@code lanes} (at most {@link #LANES}) streams through their blocks: stream l's state {@code state[l]}
     * (four ints) through {@code blocks[l]} consecutive 64-byte blocks of {@code in[l]} from {@code off[l]}. A lane
     * whose blocks are done, and the lanes from {@code lanes} on, idle (their results are dropped).
     */
    void compress(int lanes, int[][] state, byte[][] in, int[] off, int[] blocks) {
        for (int l = 0; l < LANES; l++) {
            int[] s = l < lanes ? state[l] : ScalarMd5.INITIAL;
            for (int j = 0; j < 4; j++) {
                states[j * LANES + l] = s[j];
            }
        }
        IntVector a = IntVector.fromArray(INTS, states, 0);
        IntVector b = IntVector.fromArray(INTS, states, LANES);
        IntVector c = IntVector.fromArray(INTS, states, 2 * LANES);
        IntVector d = IntVector.fromArray(INTS, states, 3 * LANES);
        int rounds = 0;
        for (int l = 0; l < lanes; l++) {
            rounds = Math.max(rounds, blocks[l]);
        }
        for (int r = 0; r < rounds; r++) {
            for (int l = 0; l < lanes; l++) {
                if (r < blocks[l]) {
                    int at = off[l] + r * ScalarMd5.BLOCK;
                    byte[] src = in[l];
                    for (int w = 0; w < 16; w++) {
                        words[w * LANES + l] = (int) ScalarMd5.LE_INT.get(src, at + 4 * w);
                    }
                }
            }
            IntVector a0 = a;
            IntVector b0 = b;
            IntVector c0 = c;
            IntVector d0 = d;
            IntVector w0 = IntVector.fromArray(INTS, words, 0 * LANES);
            IntVector w1 = IntVector.fromArray(INTS, words, 1 * LANES);
            IntVector w2 = IntVector.fromArray(INTS, words, 2 * LANES);
            IntVector w3 = IntVector.fromArray(INTS, words, 3 * LANES);
            IntVector w4 = IntVector.fromArray(INTS, words, 4 * LANES);
            IntVector w5 = IntVector.fromArray(INTS, words, 5 * LANES);
            IntVector w6 = IntVector.fromArray(INTS, words, 6 * LANES);
            IntVector w7 = IntVector.fromArray(INTS, words, 7 * LANES);
            IntVector w8 = IntVector.fromArray(INTS, words, 8 * LANES);
            IntVector w9 = IntVector.fromArray(INTS, words, 9 * LANES);
            IntVector w10 = IntVector.fromArray(INTS, words, 10 * LANES);
            IntVector w11 = IntVector.fromArray(INTS, words, 11 * LANES);
            IntVector w12 = IntVector.fromArray(INTS, words, 12 * LANES);
            IntVector w13 = IntVector.fromArray(INTS, words, 13 * LANES);
            IntVector w14 = IntVector.fromArray(INTS, words, 14 * LANES);
            IntVector w15 = IntVector.fromArray(INTS, words, 15 * LANES);
            IntVector x;
            x = a.add(d.lanewise(XOR, b.and(c.lanewise(XOR, d)))).add(0xd76aa478).add(w0);
            a = x.lanewise(LSHL, 7).or(x.lanewise(LSHR, 25)).add(b);
            x = d.add(c.lanewise(XOR, a.and(b.lanewise(XOR, c)))).add(0xe8c7b756).add(w1);
            d = x.lanewise(LSHL, 12).or(x.lanewise(LSHR, 20)).add(a);
            x = c.add(b.lanewise(XOR, d.and(a.lanewise(XOR, b)))).add(0x242070db).add(w2);
            c = x.lanewise(LSHL, 17).or(x.lanewise(LSHR, 15)).add(d);
            x = b.add(a.lanewise(XOR, c.and(d.lanewise(XOR, a)))).add(0xc1bdceee).add(w3);
            b = x.lanewise(LSHL, 22).or(x.lanewise(LSHR, 10)).add(c);
            x = a.add(d.lanewise(XOR, b.and(c.lanewise(XOR, d)))).add(0xf57c0faf).add(w4);
            a = x.lanewise(LSHL, 7).or(x.lanewise(LSHR, 25)).add(b);
            x = d.add(c.lanewise(XOR, a.and(b.lanewise(XOR, c)))).add(0x4787c62a).add(w5);
            d = x.lanewise(LSHL, 12).or(x.lanewise(LSHR, 20)).add(a);
            x = c.add(b.lanewise(XOR, d.and(a.lanewise(XOR, b)))).add(0xa8304613).add(w6);
            c = x.lanewise(LSHL, 17).or(x.lanewise(LSHR, 15)).add(d);
            x = b.add(a.lanewise(XOR, c.and(d.lanewise(XOR, a)))).add(0xfd469501).add(w7);
            b = x.lanewise(LSHL, 22).or(x.lanewise(LSHR, 10)).add(c);
            x = a.add(d.lanewise(XOR, b.and(c.lanewise(XOR, d)))).add(0x698098d8).add(w8);
            a = x.lanewise(LSHL, 7).or(x.lanewise(LSHR, 25)).add(b);
            x = d.add(c.lanewise(XOR, a.and(b.lanewise(XOR, c)))).add(0x8b44f7af).add(w9);
            d = x.lanewise(LSHL, 12).or(x.lanewise(LSHR, 20)).add(a);
            x = c.add(b.lanewise(XOR, d.and(a.lanewise(XOR, b)))).add(0xffff5bb1).add(w10);
            c = x.lanewise(LSHL, 17).or(x.lanewise(LSHR, 15)).add(d);
            x = b.add(a.lanewise(XOR, c.and(d.lanewise(XOR, a)))).add(0x895cd7be).add(w11);
            b = x.lanewise(LSHL, 22).or(x.lanewise(LSHR, 10)).add(c);
            x = a.add(d.lanewise(XOR, b.and(c.lanewise(XOR, d)))).add(0x6b901122).add(w12);
            a = x.lanewise(LSHL, 7).or(x.lanewise(LSHR, 25)).add(b);
            x = d.add(c.lanewise(XOR, a.and(b.lanewise(XOR, c)))).add(0xfd987193).add(w13);
            d = x.lanewise(LSHL, 12).or(x.lanewise(LSHR, 20)).add(a);
            x = c.add(b.lanewise(XOR, d.and(a.lanewise(XOR, b)))).add(0xa679438e).add(w14);
            c = x.lanewise(LSHL, 17).or(x.lanewise(LSHR, 15)).add(d);
            x = b.add(a.lanewise(XOR, c.and(d.lanewise(XOR, a)))).add(0x49b40821).add(w15);
            b = x.lanewise(LSHL, 22).or(x.lanewise(LSHR, 10)).add(c);
            x = a.add(c.lanewise(XOR, d.and(b.lanewise(XOR, c)))).add(0xf61e2562).add(w1);
            a = x.lanewise(LSHL, 5).or(x.lanewise(LSHR, 27)).add(b);
            x = d.add(b.lanewise(XOR, c.and(a.lanewise(XOR, b)))).add(0xc040b340).add(w6);
            d = x.lanewise(LSHL, 9).or(x.lanewise(LSHR, 23)).add(a);
            x = c.add(a.lanewise(XOR, b.and(d.lanewise(XOR, a)))).add(0x265e5a51).add(w11);
            c = x.lanewise(LSHL, 14).or(x.lanewise(LSHR, 18)).add(d);
            x = b.add(d.lanewise(XOR, a.and(c.lanewise(XOR, d)))).add(0xe9b6c7aa).add(w0);
            b = x.lanewise(LSHL, 20).or(x.lanewise(LSHR, 12)).add(c);
            x = a.add(c.lanewise(XOR, d.and(b.lanewise(XOR, c)))).add(0xd62f105d).add(w5);
            a = x.lanewise(LSHL, 5).or(x.lanewise(LSHR, 27)).add(b);
            x = d.add(b.lanewise(XOR, c.and(a.lanewise(XOR, b)))).add(0x02441453).add(w10);
            d = x.lanewise(LSHL, 9).or(x.lanewise(LSHR, 23)).add(a);
            x = c.add(a.lanewise(XOR, b.and(d.lanewise(XOR, a)))).add(0xd8a1e681).add(w15);
            c = x.lanewise(LSHL, 14).or(x.lanewise(LSHR, 18)).add(d);
            x = b.add(d.lanewise(XOR, a.and(c.lanewise(XOR, d)))).add(0xe7d3fbc8).add(w4);
            b = x.lanewise(LSHL, 20).or(x.lanewise(LSHR, 12)).add(c);
            x = a.add(c.lanewise(XOR, d.and(b.lanewise(XOR, c)))).add(0x21e1cde6).add(w9);
            a = x.lanewise(LSHL, 5).or(x.lanewise(LSHR, 27)).add(b);
            x = d.add(b.lanewise(XOR, c.and(a.lanewise(XOR, b)))).add(0xc33707d6).add(w14);
            d = x.lanewise(LSHL, 9).or(x.lanewise(LSHR, 23)).add(a);
            x = c.add(a.lanewise(XOR, b.and(d.lanewise(XOR, a)))).add(0xf4d50d87).add(w3);
            c = x.lanewise(LSHL, 14).or(x.lanewise(LSHR, 18)).add(d);
            x = b.add(d.lanewise(XOR, a.and(c.lanewise(XOR, d)))).add(0x455a14ed).add(w8);
            b = x.lanewise(LSHL, 20).or(x.lanewise(LSHR, 12)).add(c);
            x = a.add(c.lanewise(XOR, d.and(b.lanewise(XOR, c)))).add(0xa9e3e905).add(w13);
            a = x.lanewise(LSHL, 5).or(x.lanewise(LSHR, 27)).add(b);
            x = d.add(b.lanewise(XOR, c.and(a.lanewise(XOR, b)))).add(0xfcefa3f8).add(w2);
            d = x.lanewise(LSHL, 9).or(x.lanewise(LSHR, 23)).add(a);
            x = c.add(a.lanewise(XOR, b.and(d.lanewise(XOR, a)))).add(0x676f02d9).add(w7);
            c = x.lanewise(LSHL, 14).or(x.lanewise(LSHR, 18)).add(d);
            x = b.add(d.lanewise(XOR, a.and(c.lanewise(XOR, d)))).add(0x8d2a4c8a).add(w12);
            b = x.lanewise(LSHL, 20).or(x.lanewise(LSHR, 12)).add(c);
            x = a.add(b.lanewise(XOR, c).lanewise(XOR, d)).add(0xfffa3942).add(w5);
            a = x.lanewise(LSHL, 4).or(x.lanewise(LSHR, 28)).add(b);
            x = d.add(a.lanewise(XOR, b).lanewise(XOR, c)).add(0x8771f681).add(w8);
            d = x.lanewise(LSHL, 11).or(x.lanewise(LSHR, 21)).add(a);
            x = c.add(d.lanewise(XOR, a).lanewise(XOR, b)).add(0x6d9d6122).add(w11);
            c = x.lanewise(LSHL, 16).or(x.lanewise(LSHR, 16)).add(d);
            x = b.add(c.lanewise(XOR, d).lanewise(XOR, a)).add(0xfde5380c).add(w14);
            b = x.lanewise(LSHL, 23).or(x.lanewise(LSHR, 9)).add(c);
            x = a.add(b.lanewise(XOR, c).lanewise(XOR, d)).add(0xa4beea44).add(w1);
            a = x.lanewise(LSHL, 4).or(x.lanewise(LSHR, 28)).add(b);
            x = d.add(a.lanewise(XOR, b).lanewise(XOR, c)).add(0x4bdecfa9).add(w4);
            d = x.lanewise(LSHL, 11).or(x.lanewise(LSHR, 21)).add(a);
            x = c.add(d.lanewise(XOR, a).lanewise(XOR, b)).add(0xf6bb4b60).add(w7);
            c = x.lanewise(LSHL, 16).or(x.lanewise(LSHR, 16)).add(d);
            x = b.add(c.lanewise(XOR, d).lanewise(XOR, a)).add(0xbebfbc70).add(w10);
            b = x.lanewise(LSHL, 23).or(x.lanewise(LSHR, 9)).add(c);
            x = a.add(b.lanewise(XOR, c).lanewise(XOR, d)).add(0x289b7ec6).add(w13);
            a = x.lanewise(LSHL, 4).or(x.lanewise(LSHR, 28)).add(b);
            x = d.add(a.lanewise(XOR, b).lanewise(XOR, c)).add(0xeaa127fa).add(w0);
            d = x.lanewise(LSHL, 11).or(x.lanewise(LSHR, 21)).add(a);
            x = c.add(d.lanewise(XOR, a).lanewise(XOR, b)).add(0xd4ef3085).add(w3);
            c = x.lanewise(LSHL, 16).or(x.lanewise(LSHR, 16)).add(d);
            x = b.add(c.lanewise(XOR, d).lanewise(XOR, a)).add(0x04881d05).add(w6);
            b = x.lanewise(LSHL, 23).or(x.lanewise(LSHR, 9)).add(c);
            x = a.add(b.lanewise(XOR, c).lanewise(XOR, d)).add(0xd9d4d039).add(w9);
            a = x.lanewise(LSHL, 4).or(x.lanewise(LSHR, 28)).add(b);
            x = d.add(a.lanewise(XOR, b).lanewise(XOR, c)).add(0xe6db99e5).add(w12);
            d = x.lanewise(LSHL, 11).or(x.lanewise(LSHR, 21)).add(a);
            x = c.add(d.lanewise(XOR, a).lanewise(XOR, b)).add(0x1fa27cf8).add(w15);
            c = x.lanewise(LSHL, 16).or(x.lanewise(LSHR, 16)).add(d);
            x = b.add(c.lanewise(XOR, d).lanewise(XOR, a)).add(0xc4ac5665).add(w2);
            b = x.lanewise(LSHL, 23).or(x.lanewise(LSHR, 9)).add(c);
            x = a.add(c.lanewise(XOR, b.or(d.not()))).add(0xf4292244).add(w0);
            a = x.lanewise(LSHL, 6).or(x.lanewise(LSHR, 26)).add(b);
            x = d.add(b.lanewise(XOR, a.or(c.not()))).add(0x432aff97).add(w7);
            d = x.lanewise(LSHL, 10).or(x.lanewise(LSHR, 22)).add(a);
            x = c.add(a.lanewise(XOR, d.or(b.not()))).add(0xab9423a7).add(w14);
            c = x.lanewise(LSHL, 15).or(x.lanewise(LSHR, 17)).add(d);
            x = b.add(d.lanewise(XOR, c.or(a.not()))).add(0xfc93a039).add(w5);
            b = x.lanewise(LSHL, 21).or(x.lanewise(LSHR, 11)).add(c);
            x = a.add(c.lanewise(XOR, b.or(d.not()))).add(0x655b59c3).add(w12);
            a = x.lanewise(LSHL, 6).or(x.lanewise(LSHR, 26)).add(b);
            x = d.add(b.lanewise(XOR, a.or(c.not()))).add(0x8f0ccc92).add(w3);
            d = x.lanewise(LSHL, 10).or(x.lanewise(LSHR, 22)).add(a);
            x = c.add(a.lanewise(XOR, d.or(b.not()))).add(0xffeff47d).add(w10);
            c = x.lanewise(LSHL, 15).or(x.lanewise(LSHR, 17)).add(d);
            x = b.add(d.lanewise(XOR, c.or(a.not()))).add(0x85845dd1).add(w1);
            b = x.lanewise(LSHL, 21).or(x.lanewise(LSHR, 11)).add(c);
            x = a.add(c.lanewise(XOR, b.or(d.not()))).add(0x6fa87e4f).add(w8);
            a = x.lanewise(LSHL, 6).or(x.lanewise(LSHR, 26)).add(b);
            x = d.add(b.lanewise(XOR, a.or(c.not()))).add(0xfe2ce6e0).add(w15);
            d = x.lanewise(LSHL, 10).or(x.lanewise(LSHR, 22)).add(a);
            x = c.add(a.lanewise(XOR, d.or(b.not()))).add(0xa3014314).add(w6);
            c = x.lanewise(LSHL, 15).or(x.lanewise(LSHR, 17)).add(d);
            x = b.add(d.lanewise(XOR, c.or(a.not()))).add(0x4e0811a1).add(w13);
            b = x.lanewise(LSHL, 21).or(x.lanewise(LSHR, 11)).add(c);
            x = a.add(c.lanewise(XOR, b.or(d.not()))).add(0xf7537e82).add(w4);
            a = x.lanewise(LSHL, 6).or(x.lanewise(LSHR, 26)).add(b);
            x = d.add(b.lanewise(XOR, a.or(c.not()))).add(0xbd3af235).add(w11);
            d = x.lanewise(LSHL, 10).or(x.lanewise(LSHR, 22)).add(a);
            x = c.add(a.lanewise(XOR, d.or(b.not()))).add(0x2ad7d2bb).add(w2);
            c = x.lanewise(LSHL, 15).or(x.lanewise(LSHR, 17)).add(d);
            x = b.add(d.lanewise(XOR, c.or(a.not()))).add(0xeb86d391).add(w9);
            b = x.lanewise(LSHL, 21).or(x.lanewise(LSHR, 11)).add(c);
            a = a.add(a0);
            b = b.add(b0);
            c = c.add(c0);
            d = d.add(d0);
            // every round, so that no vector crosses a call; the lanes done with this round copy theirs out
            a.intoArray(states, 0);
            b.intoArray(states, LANES);
            c.intoArray(states, 2 * LANES);
            d.intoArray(states, 3 * LANES);
            for (int l = 0; l < lanes; l++) {
                if (r + 1 == blocks[l]) {
                    for (int j = 0; j < 4; j++) {
                        state[l][j] = states[j * LANES + l];
                    }
                }
            }
        }
    }
}
