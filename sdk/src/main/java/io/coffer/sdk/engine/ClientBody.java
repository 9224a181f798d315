package io.coffer.sdk.engine;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Marks failures of the client's body stream, so that the engine can tell a client that sent a bad or short body
 * (a client error) from a backend that failed (a server error). Gateways signal a rejected body (bad checksum, bad
 * chunk signature) by throwing an IOException whose cause is a {@link io.coffer.sdk.CofferException}.
 */
final class ClientBody extends FilterInputStream {

    /** The body stream failed; the cause is what it threw. */
    static final class ReadFailure extends IOException {
        private static final long serialVersionUID = 1L;

        ReadFailure(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    ClientBody(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        try {
            return in.read();
        } catch (IOException e) {
            throw new ReadFailure(e);
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            return in.read(b, off, len);
        } catch (IOException e) {
            throw new ReadFailure(e);
        }
    }
}
