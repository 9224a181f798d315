package io.coffer.sdk.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
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

    /**
     * {@code length} bytes of reproducible text-like data: lines of words drawn, skewed towards the first ones, from a
     * vocabulary of 512 made-up words, with numbers in between. zstd compresses it about three times; no two seeds
     * give the same text, so objects of different seeds share no chunks.
     */
    public static byte[] text(long seed, int length) {
        SplittableRandom random = new SplittableRandom(seed);
        String[] words = new String[512];
        for (int i = 0; i < words.length; i++) {
            char[] w = new char[3 + random.nextInt(8)];
            for (int j = 0; j < w.length; j++) {
                w[j] = (char) ('a' + random.nextInt(26));
            }
            words[i] = new String(w);
        }
        StringBuilder sb = new StringBuilder(length + 64);
        while (sb.length() < length) {
            int n = 4 + random.nextInt(12);
            for (int i = 0; i < n; i++) {
                int r = random.nextInt(words.length);
                sb.append(words[r * r / words.length]).append(i + 1 < n ? ' ' : '.');
            }
            sb.append(' ').append(random.nextInt(100_000)).append('\n');
        }
        return Arrays.copyOf(sb.toString().getBytes(StandardCharsets.US_ASCII), length);
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
