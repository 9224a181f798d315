package io.coffer.sdk.checksum;

import io.coffer.sdk.blob.ReadThroughInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Passes a stream through while computing one checksum of the bytes read; the value is known at EOF. */
public final class ChecksumInputStream extends ReadThroughInputStream {
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
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            running.update(b, off, n);
        }
        return n;
    }
}
