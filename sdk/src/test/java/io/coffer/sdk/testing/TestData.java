package io.coffer.sdk.testing;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;

/** Reproducible pseudo-random test data, streamed so that large objects never sit in memory. */
public final class TestData {
    private TestData() {
    }

    /** {@code length} pseudo-random bytes determined by {@code seed}. */
    public static InputStream stream(long seed, long length) {
        return new InputStream() {
            private final SplittableRandom random = new SplittableRandom(seed);
            private final byte[] block = new byte[8192];
            private int blockPos = block.length;
            private long left = length;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (left == 0) {
                    return -1;
                }
                int n = (int) Math.min(len, left);
                for (int done = 0; done < n; ) {
                    if (blockPos == block.length) {
                        random.nextBytes(block);
                        blockPos = 0;
                    }
                    int k = Math.min(n - done, block.length - blockPos);
                    System.arraycopy(block, blockPos, b, off + done, k);
                    blockPos += k;
                    done += k;
                }
                left -= n;
                return n;
            }
        };
    }

    public static byte[] bytes(long seed, int length) {
        try {
            return stream(seed, length).readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** MD5 hex of a whole stream (consumes it). */
    public static String md5Hex(InputStream in) throws IOException {
        MessageDigest md = md5();
        byte[] buf = new byte[1 << 16];
        for (int n; (n = in.read(buf)) > 0; ) {
            md.update(buf, 0, n);
        }
        return HexFormat.of().formatHex(md.digest());
    }

    public static String md5Hex(byte[] data) {
        return HexFormat.of().formatHex(md5().digest(data));
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
