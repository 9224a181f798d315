package io.coffer.benchmarks;

import java.io.OutputStream;

/** An output stream that counts what is written and keeps nothing, so that writing costs no copy. */
public final class CountingSink extends OutputStream {
    private long count;

    public long count() {
        return count;
    }

    @Override
    public void write(int b) {
        count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        count += len;
    }
}
