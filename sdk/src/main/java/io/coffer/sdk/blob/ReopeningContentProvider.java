package io.coffer.sdk.blob;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.http.ContentStreamProvider;

/**
 * Opens the blob content afresh for each attempt the SDK makes, closes every stream it opened, and remembers a
 * failure of the content itself so that it is reported rather than the SDK's wrapper.
 */
final class ReopeningContentProvider implements ContentStreamProvider, AutoCloseable {
    private final BlobContent content;
    private final List<InputStream> opened = new ArrayList<>();
    private volatile IOException contentFailure;

    ReopeningContentProvider(BlobContent content) {
        this.content = content;
    }

    @Override
    public synchronized InputStream newStream() {
        try {
            InputStream in = new FailureRecordingStream(content.open());
            opened.add(in);
            return in;
        } catch (IOException e) {
            contentFailure = e;
            throw new UncheckedIOException("cannot open blob content", e);
        }
    }

    IOException failure(String what, RuntimeException e) {
        IOException source = contentFailure;
        if (source != null) {
            IOException result = new IOException(what + " failed reading the blob content: "
                    + source.getMessage(), source);
            result.addSuppressed(e);
            return result;
        }
        return new IOException("S3 " + what + " failed: " + e.getMessage(), e);
    }

    @Override
    public synchronized void close() throws IOException {
        IOException first = null;
        for (InputStream in : opened) {
            try {
                in.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        opened.clear();
        if (first != null) {
            throw first;
        }
    }

    /** Passes reads through and records the content's own I/O failures. */
    private final class FailureRecordingStream extends FilterInputStream {
        FailureRecordingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (IOException e) {
                contentFailure = e;
                throw e;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (IOException e) {
                contentFailure = e;
                throw e;
            }
        }
    }
}
