package io.coffer.sdk.checksum;

import java.util.zip.Checksum;

/**
 * CRC-64/NVME (reflected polynomial 0x9A6C9329AC4BC9B5, init and xor-out all ones; check value of "123456789" is
 * 0xAE8B14860A799888), the CRC S3 calls CRC64NVME.
 *
 * <p>Why not a library: the one maintained Java implementation on Maven Central, the AWS SDK's
 * {@code software.amazon.awssdk:checksums}, only delegates CRC64NVME to the native aws-crt library (a large
 * platform-specific artifact), so this small table-driven (slice-by-8) version is used instead; it is tested against
 * the catalogue check value and S3's documented value for an empty body.
 */
public final class Crc64Nvme implements Checksum {
    static final long POLY = 0x9A6C9329AC4BC9B5L;
    private static final long[][] TABLES = new long[8][256];

    static {
        for (int n = 0; n < 256; n++) {
            long c = n;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ POLY : c >>> 1;
            }
            TABLES[0][n] = c;
        }
        for (int n = 0; n < 256; n++) {
            long c = TABLES[0][n];
            for (int t = 1; t < 8; t++) {
                c = TABLES[0][(int) (c & 0xff)] ^ (c >>> 8);
                TABLES[t][n] = c;
            }
        }
    }

    private long crc = -1L;

    @Override
    public void update(int b) {
        crc = TABLES[0][(int) ((crc ^ b) & 0xff)] ^ (crc >>> 8);
    }

    @Override
    public void update(byte[] b, int off, int len) {
        long c = crc;
        int i = off;
        int end = off + len;
        while (end - i >= 8) {
            c ^= (b[i] & 0xffL) | (b[i + 1] & 0xffL) << 8 | (b[i + 2] & 0xffL) << 16 | (b[i + 3] & 0xffL) << 24
                    | (b[i + 4] & 0xffL) << 32 | (b[i + 5] & 0xffL) << 40 | (b[i + 6] & 0xffL) << 48
                    | (b[i + 7] & 0xffL) << 56;
            c = TABLES[7][(int) (c & 0xff)] ^ TABLES[6][(int) ((c >>> 8) & 0xff)]
                    ^ TABLES[5][(int) ((c >>> 16) & 0xff)] ^ TABLES[4][(int) ((c >>> 24) & 0xff)]
                    ^ TABLES[3][(int) ((c >>> 32) & 0xff)] ^ TABLES[2][(int) ((c >>> 40) & 0xff)]
                    ^ TABLES[1][(int) ((c >>> 48) & 0xff)] ^ TABLES[0][(int) (c >>> 56)];
            i += 8;
        }
        for (; i < end; i++) {
            c = TABLES[0][(int) ((c ^ b[i]) & 0xff)] ^ (c >>> 8);
        }
        crc = c;
    }

    @Override
    public long getValue() {
        return ~crc;
    }

    @Override
    public void reset() {
        crc = -1L;
    }
}
