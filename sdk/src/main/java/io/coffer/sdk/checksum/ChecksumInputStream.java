package io.coffer.sdk.checksum;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Passes a stream through while computing one checksum of the bytes read; the value is known at EOF. */
public final class ChecksumInputStream extends FilterInputStream {
    private final ChecksumAlgorithm algorithm;
    private final ChecksumAlgorithm.Running running;

    public ChecksumInputStream(InputStream in, ChecksumAlgorithm algorithm) {
        super(in);
        this.algorithm = algorithm;
        this.running = algorithm.start();
    }

    public ChecksumAlgorithm algorithm() {
        return algorithm;
    }

    /** The checksum of the bytes read so far (base64); call once, after EOF. */
    public String base64() {
        return running.base64();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            running.update(b, off, n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
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
    public boolean markSupported() {
        return false;
    }
}
