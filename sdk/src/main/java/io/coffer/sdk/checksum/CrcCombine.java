package io.coffer.sdk.checksum;

/**
 * Combines the CRCs of two byte runs into the CRC of both, knowing only the second run's length: zlib's
 * {@code crc32_combine} (GF(2) matrix powers of the "append one zero bit" operator), for any reflected CRC whose init
 * and xor-out are all ones (CRC32, CRC32C, CRC64NVME). Cost: O(width^2 log length).
 */
final class CrcCombine {
    private CrcCombine() {
    }

    static long combine(long crcA, long crcB, long lengthB, long polynomial, int width) {
        if (lengthB <= 0) {
            return crcA;
        }
        long[] odd = new long[width];
        long[] even = new long[width];
        odd[0] = polynomial; // the operator for one zero bit
        long row = 1;
        for (int n = 1; n < width; n++) {
            odd[n] = row;
            row <<= 1;
        }
        square(even, odd); // two zero bits
        square(odd, even); // four zero bits
        long len = lengthB;
        do {
            square(even, odd); // first pass: one zero byte
            if ((len & 1) != 0) {
                crcA = times(even, crcA);
            }
            len >>>= 1;
            if (len == 0) {
                break;
            }
            square(odd, even);
            if ((len & 1) != 0) {
                crcA = times(odd, crcA);
            }
            len >>>= 1;
        } while (len != 0);
        return crcA ^ crcB;
    }

    private static long times(long[] matrix, long vector) {
        long sum = 0;
        for (int i = 0; vector != 0; i++, vector >>>= 1) {
            if ((vector & 1) != 0) {
                sum ^= matrix[i];
            }
        }
        return sum;
    }

    private static void square(long[] square, long[] matrix) {
        for (int n = 0; n < matrix.length; n++) {
            square[n] = times(matrix, matrix[n]);
        }
    }
}
