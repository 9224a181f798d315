package io.coffer.sdk.blob;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/** Blob contents for tests: generated streams that are never held in memory, and streams that fail part-way. */
final class TestContents {

    private static final String DIGEST = "SHA-256";
    private static final int BUFFER = 64 * 1024;

    private TestContents() {
    }

    /** {@code length} pseudo-random bytes computed from {@code seed} as they are read; no backing array. */
    static BlobContent generated(long length, long seed) {
        return new BlobContent() {
            @Override
            public long length() {
                return length;
            }

            @Override
            public InputStream open() {
                return new GeneratedStream(length, seed);
            }
        };
    }

    /** Content of the declared {@code length} whose stream throws an {@link IOException} after {@code failAt} bytes. */
    static BlobContent failingAfter(long length, long failAt) {
        return new BlobContent() {
            @Override
            public long length() {
                return length;
            }

            @Override
            public InputStream open() {
                return new GeneratedStream(failAt, length) {
                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        int n = super.read(b, off, len);
                        if (n < 0) {
                            throw new IOException("simulated failure of the content source after " + failAt + " bytes");
                        }
                        return n;
                    }
                };
            }
        };
    }

    /** Content that declares {@code declared} bytes but whose stream holds {@code actual}. */
    static BlobContent mislabelled(long declared, long actual) {
        return new BlobContent() {
            @Override
            public long length() {
                return declared;
            }

            @Override
            public InputStream open() {
                return new GeneratedStream(actual, 7);
            }
        };
    }

    /** SHA-256 of everything {@code in} holds; reads it to the end but does not close it. */
    static byte[] sha256(InputStream in) throws IOException {
        MessageDigest md = newDigest();
        byte[] buffer = new byte[BUFFER];
        int n;
        while ((n = in.read(buffer)) >= 0) {
            md.update(buffer, 0, n);
        }
        return md.digest();
    }

    /** SHA-256 of a content's bytes. */
    static byte[] sha256(BlobContent content) throws IOException {
        try (InputStream in = content.open()) {
            return sha256(in);
        }
    }

    /** The bytes of a small content, for exact comparisons. */
    static byte[] bytes(BlobContent content) throws IOException {
        try (InputStream in = content.open()) {
            return in.readAllBytes();
        }
    }

    /** {@code length} bytes all equal to {@code value}. */
    static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance(DIGEST);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Byte {@code i} is a byte of a 64-bit mix of {@code seed} and {@code i / 8}. */
    private static class GeneratedStream extends InputStream {
        private final long length;
        private final long seed;
        private long position;

        GeneratedStream(long length, long seed) {
            this.length = length;
            this.seed = seed;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (position >= length) {
                return -1;
            }
            int n = (int) Math.min(len, length - position);
            for (int i = 0; i < n; i++) {
                long p = position + i;
                b[off + i] = (byte) (mix(seed * 0x9E3779B97F4A7C15L + (p >>> 3)) >>> ((p & 7) * 8));
            }
            position += n;
            return n;
        }

        private static long mix(long z) {
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }
    }
}
