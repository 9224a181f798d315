package io.coffer.gateway.s3.post;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A POST Object file within the policy's content-length-range: EntityTooLarge as soon as more than {@code max} bytes
 * were read, EntityTooSmall at the end when fewer than {@code min}. Both are thrown by a read before end of stream is
 * reported, so the engine, which commits only at end of stream, stores nothing.
 */
public final class LengthRangeInputStream extends FilterInputStream {
    private final long min;
    private final long max;
    private long count;

    public LengthRangeInputStream(InputStream in, long min, long max) {
        super(in);
        this.min = min;
        this.max = max;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n < 0) {
            if (count < min) {
                throw new S3Exception(S3ErrorCode.ENTITY_TOO_SMALL, "Your proposed upload is smaller than the minimum"
                        + " allowed size (" + min + " bytes).").asIOException();
            }
            return n;
        }
        count += n;
        if (count > max) {
            throw new S3Exception(S3ErrorCode.ENTITY_TOO_LARGE, "Your proposed upload exceeds the maximum allowed"
                    + " size (" + max + " bytes).").asIOException();
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        return read(new byte[(int) Math.min(n, 8192)], 0, (int) Math.min(n, 8192));
    }
}
