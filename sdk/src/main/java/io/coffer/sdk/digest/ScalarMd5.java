package io.coffer.sdk.digest;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MD5 (RFC 1321) one stream at a time, on a state the caller keeps (four ints), so that a stream can move between this
 * loop and the lanes of {@link VectorMd5Kernel} block by block: {@link Md5Lanes} hashes a stream here while no other
 * stream has data, and the 0 to 63 bytes of a block split between two reads.
 */
final class ScalarMd5 {
    static final VarHandle LE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final int BLOCK = 64;
    /** A, B, C, D before the first block (RFC 1321, section 3.3). */
    static final int[] INITIAL = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};

    private ScalarMd5() {}

    /** A fresh state. */
    static int[] initialState() {
        return INITIAL.clone();
    }

    /**
     * Takes {@code state} through the 64-byte block at {@code in[off]}: RFC 1321's 64 steps written
     * out, T[i] and the shifts as constants (a loop over tables ran at a fifth of the JDK's MD5).
     */
    static void compress(int[] state, byte[] in, int off) {
        int x0 = (int) LE_INT.get(in, off + 0);
        int x1 = (int) LE_INT.get(in, off + 4);
        int x2 = (int) LE_INT.get(in, off + 8);
        int x3 = (int) LE_INT.get(in, off + 12);
        int x4 = (int) LE_INT.get(in, off + 16);
        int x5 = (int) LE_INT.get(in, off + 20);
        int x6 = (int) LE_INT.get(in, off + 24);
        int x7 = (int) LE_INT.get(in, off + 28);
        int x8 = (int) LE_INT.get(in, off + 32);
        int x9 = (int) LE_INT.get(in, off + 36);
        int x10 = (int) LE_INT.get(in, off + 40);
        int x11 = (int) LE_INT.get(in, off + 44);
        int x12 = (int) LE_INT.get(in, off + 48);
        int x13 = (int) LE_INT.get(in, off + 52);
        int x14 = (int) LE_INT.get(in, off + 56);
        int x15 = (int) LE_INT.get(in, off + 60);
        int a = state[0];
        int b = state[1];
        int c = state[2];
        int d = state[3];
        a = b + Integer.rotateLeft(a + (d ^ (b & (c ^ d))) + 0xd76aa478 + x0, 7);
        d = a + Integer.rotateLeft(d + (c ^ (a & (b ^ c))) + 0xe8c7b756 + x1, 12);
        c = d + Integer.rotateLeft(c + (b ^ (d & (a ^ b))) + 0x242070db + x2, 17);
        b = c + Integer.rotateLeft(b + (a ^ (c & (d ^ a))) + 0xc1bdceee + x3, 22);
        a = b + Integer.rotateLeft(a + (d ^ (b & (c ^ d))) + 0xf57c0faf + x4, 7);
        d = a + Integer.rotateLeft(d + (c ^ (a & (b ^ c))) + 0x4787c62a + x5, 12);
        c = d + Integer.rotateLeft(c + (b ^ (d & (a ^ b))) + 0xa8304613 + x6, 17);
        b = c + Integer.rotateLeft(b + (a ^ (c & (d ^ a))) + 0xfd469501 + x7, 22);
        a = b + Integer.rotateLeft(a + (d ^ (b & (c ^ d))) + 0x698098d8 + x8, 7);
        d = a + Integer.rotateLeft(d + (c ^ (a & (b ^ c))) + 0x8b44f7af + x9, 12);
        c = d + Integer.rotateLeft(c + (b ^ (d & (a ^ b))) + 0xffff5bb1 + x10, 17);
        b = c + Integer.rotateLeft(b + (a ^ (c & (d ^ a))) + 0x895cd7be + x11, 22);
        a = b + Integer.rotateLeft(a + (d ^ (b & (c ^ d))) + 0x6b901122 + x12, 7);
        d = a + Integer.rotateLeft(d + (c ^ (a & (b ^ c))) + 0xfd987193 + x13, 12);
        c = d + Integer.rotateLeft(c + (b ^ (d & (a ^ b))) + 0xa679438e + x14, 17);
        b = c + Integer.rotateLeft(b + (a ^ (c & (d ^ a))) + 0x49b40821 + x15, 22);
        a = b + Integer.rotateLeft(a + (c ^ (d & (b ^ c))) + 0xf61e2562 + x1, 5);
        d = a + Integer.rotateLeft(d + (b ^ (c & (a ^ b))) + 0xc040b340 + x6, 9);
        c = d + Integer.rotateLeft(c + (a ^ (b & (d ^ a))) + 0x265e5a51 + x11, 14);
        b = c + Integer.rotateLeft(b + (d ^ (a & (c ^ d))) + 0xe9b6c7aa + x0, 20);
        a = b + Integer.rotateLeft(a + (c ^ (d & (b ^ c))) + 0xd62f105d + x5, 5);
        d = a + Integer.rotateLeft(d + (b ^ (c & (a ^ b))) + 0x02441453 + x10, 9);
        c = d + Integer.rotateLeft(c + (a ^ (b & (d ^ a))) + 0xd8a1e681 + x15, 14);
        b = c + Integer.rotateLeft(b + (d ^ (a & (c ^ d))) + 0xe7d3fbc8 + x4, 20);
        a = b + Integer.rotateLeft(a + (c ^ (d & (b ^ c))) + 0x21e1cde6 + x9, 5);
        d = a + Integer.rotateLeft(d + (b ^ (c & (a ^ b))) + 0xc33707d6 + x14, 9);
        c = d + Integer.rotateLeft(c + (a ^ (b & (d ^ a))) + 0xf4d50d87 + x3, 14);
        b = c + Integer.rotateLeft(b + (d ^ (a & (c ^ d))) + 0x455a14ed + x8, 20);
        a = b + Integer.rotateLeft(a + (c ^ (d & (b ^ c))) + 0xa9e3e905 + x13, 5);
        d = a + Integer.rotateLeft(d + (b ^ (c & (a ^ b))) + 0xfcefa3f8 + x2, 9);
        c = d + Integer.rotateLeft(c + (a ^ (b & (d ^ a))) + 0x676f02d9 + x7, 14);
        b = c + Integer.rotateLeft(b + (d ^ (a & (c ^ d))) + 0x8d2a4c8a + x12, 20);
        a = b + Integer.rotateLeft(a + (b ^ c ^ d) + 0xfffa3942 + x5, 4);
        d = a + Integer.rotateLeft(d + (a ^ b ^ c) + 0x8771f681 + x8, 11);
        c = d + Integer.rotateLeft(c + (d ^ a ^ b) + 0x6d9d6122 + x11, 16);
        b = c + Integer.rotateLeft(b + (c ^ d ^ a) + 0xfde5380c + x14, 23);
        a = b + Integer.rotateLeft(a + (b ^ c ^ d) + 0xa4beea44 + x1, 4);
        d = a + Integer.rotateLeft(d + (a ^ b ^ c) + 0x4bdecfa9 + x4, 11);
        c = d + Integer.rotateLeft(c + (d ^ a ^ b) + 0xf6bb4b60 + x7, 16);
        b = c + Integer.rotateLeft(b + (c ^ d ^ a) + 0xbebfbc70 + x10, 23);
        a = b + Integer.rotateLeft(a + (b ^ c ^ d) + 0x289b7ec6 + x13, 4);
        d = a + Integer.rotateLeft(d + (a ^ b ^ c) + 0xeaa127fa + x0, 11);
        c = d + Integer.rotateLeft(c + (d ^ a ^ b) + 0xd4ef3085 + x3, 16);
        b = c + Integer.rotateLeft(b + (c ^ d ^ a) + 0x04881d05 + x6, 23);
        a = b + Integer.rotateLeft(a + (b ^ c ^ d) + 0xd9d4d039 + x9, 4);
        d = a + Integer.rotateLeft(d + (a ^ b ^ c) + 0xe6db99e5 + x12, 11);
        c = d + Integer.rotateLeft(c + (d ^ a ^ b) + 0x1fa27cf8 + x15, 16);
        b = c + Integer.rotateLeft(b + (c ^ d ^ a) + 0xc4ac5665 + x2, 23);
        a = b + Integer.rotateLeft(a + (c ^ (b | ~d)) + 0xf4292244 + x0, 6);
        d = a + Integer.rotateLeft(d + (b ^ (a | ~c)) + 0x432aff97 + x7, 10);
        c = d + Integer.rotateLeft(c + (a ^ (d | ~b)) + 0xab9423a7 + x14, 15);
        b = c + Integer.rotateLeft(b + (d ^ (c | ~a)) + 0xfc93a039 + x5, 21);
        a = b + Integer.rotateLeft(a + (c ^ (b | ~d)) + 0x655b59c3 + x12, 6);
        d = a + Integer.rotateLeft(d + (b ^ (a | ~c)) + 0x8f0ccc92 + x3, 10);
        c = d + Integer.rotateLeft(c + (a ^ (d | ~b)) + 0xffeff47d + x10, 15);
        b = c + Integer.rotateLeft(b + (d ^ (c | ~a)) + 0x85845dd1 + x1, 21);
        a = b + Integer.rotateLeft(a + (c ^ (b | ~d)) + 0x6fa87e4f + x8, 6);
        d = a + Integer.rotateLeft(d + (b ^ (a | ~c)) + 0xfe2ce6e0 + x15, 10);
        c = d + Integer.rotateLeft(c + (a ^ (d | ~b)) + 0xa3014314 + x6, 15);
        b = c + Integer.rotateLeft(b + (d ^ (c | ~a)) + 0x4e0811a1 + x13, 21);
        a = b + Integer.rotateLeft(a + (c ^ (b | ~d)) + 0xf7537e82 + x4, 6);
        d = a + Integer.rotateLeft(d + (b ^ (a | ~c)) + 0xbd3af235 + x11, 10);
        c = d + Integer.rotateLeft(c + (a ^ (d | ~b)) + 0x2ad7d2bb + x2, 15);
        b = c + Integer.rotateLeft(b + (d ^ (c | ~a)) + 0xeb86d391 + x9, 21);
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
    }

    /**
     * The digest of a stream of {@code total} bytes whose state is {@code state} and whose last {@code tailLen} (under
     * 64) bytes are {@code tail[0, tailLen)}, not yet compressed: MD5's padding (section 3.1) and length (3.2).
     */
    static byte[] finish(int[] state, byte[] tail, int tailLen, long total) {
        byte[] last = new byte[2 * BLOCK];
        System.arraycopy(tail, 0, last, 0, tailLen);
        last[tailLen] = (byte) 0x80;
        int blocks = tailLen < BLOCK - 8 ? 1 : 2;
        LE_LONG.set(last, blocks * BLOCK - 8, total << 3);
        for (int i = 0; i < blocks; i++) {
            compress(state, last, i * BLOCK);
        }
        byte[] digest = new byte[16];
        for (int i = 0; i < 4; i++) {
            LE_INT.set(digest, 4 * i, state[i]);
        }
        return digest;
    }
}
