package io.coffer.sdk.blob;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A filter stream whose every byte passes through {@link #read(byte[], int, int)}: a single-byte read and a skip are
 * made of it, and mark/reset is not offered, so a subclass that hashes, counts or checks the bytes in that one method
 * sees each byte exactly once.
 */
public abstract class ReadThroughInputStream extends FilterInputStream {
    protected ReadThroughInputStream(InputStream in) {
        super(in);
    }

    @Override
    public abstract int read(byte[] b, int off, int len) throws IOException;

    @Override
    public final int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public final long skip(long n) throws IOException {
        byte[] buf = new byte[(int) Math.min(8192, Math.max(n, 1))];
        long skipped = 0;
        while (skipped < n) {
            int r = read(buf, 0, (int) Math.min(buf.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    @Override
    public final boolean markSupported() {
        return false;
    }
}
