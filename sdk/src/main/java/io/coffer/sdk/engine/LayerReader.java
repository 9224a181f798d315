package io.coffer.sdk.engine;

import io.coffer.sdk.blob.BoundedInputStream;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.deflate.PartialEncoder;
import io.coffer.sdk.deflate.ZlibRecipe;
import io.coffer.sdk.deflate.ZlibReplay;
import io.coffer.sdk.layer.TarSplit;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PushbackInputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The layer-mode read path: a layer-mode object's bytes are the {@link PartialEncoder}'s re-encoding of its token
 * stream and side information, or the {@link ZlibReplay} of its decompressed bytes and zlib recipe, both read as
 * ordinary chunks. The encoder runs on a thread of its own and writes into a
 * pipe the caller reads. A range is served by re-encoding from the start and skipping to it (deflate's bit-level
 * state cannot be resumed mid-stream without keeping it). The stream ends in an IOException, never early, if the
 * encoder fails or gives a length other than the object's.
 */
final class LayerReader {
    private static final int PIPE_BUFFER = 64 << 10;
    private static final int MAGIC_BYTES = 4;
    private final PartialEncoder encoder = new PartialEncoder();
    private final ZlibReplay replay = new ZlibReplay();

    InputStream open(EngineContext ctx, Manifest m, long offset, long length) throws IOException {
        List<ManifestEntry> side = m.entries().subList(0, m.layerSide());
        List<ManifestEntry> data = m.entries().subList(m.layerSide(), m.entries().size());
        ObjectReadStream sideIn = stream(ctx, side, 0, length(side));
        ObjectReadStream dataIn;
        try {
            dataIn = stream(ctx, data, 0, length(data));
        } catch (IOException | RuntimeException e) {
            sideIn.close();
            throw e;
        }
        PipedInputStream pipe = new PipedInputStream(PIPE_BUFFER);
        PipedOutputStream out = new PipedOutputStream(pipe);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try (sideIn; dataIn; out) {
                long n = encode(ctx, sideIn, dataIn, data, out);
                if (n != m.size()) {
                    throw new IOException("layer re-encoded to " + n + " bytes, not " + m.size());
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "coffer-layer-encode");
        t.setDaemon(true);
        t.start();
        InputStream whole = new Checked(pipe, failure, t, m.size());
        whole.skipNBytes(offset);
        return new BoundedInputStream(whole, length);
    }

    /**
     * Re-creates the object: a zlib recipe (it starts with {@code "cpz"}) deflates the decompressed bytes again,
     * side information ({@code "cpd"}) re-encodes the token stream.
     */
    private long encode(EngineContext ctx, InputStream sideIn, InputStream dataIn, List<ManifestEntry> data,
                        PipedOutputStream out) throws IOException {
        PushbackInputStream side = new PushbackInputStream(sideIn, MAGIC_BYTES);
        byte[] start = side.readNBytes(MAGIC_BYTES);
        if (ZlibRecipe.isRecipe(start)) {
            byte[] rest = side.readNBytes(ZlibRecipe.MAX_BYTES);
            if (side.read() >= 0) {
                throw new IOException("the layer's zlib recipe is longer than " + ZlibRecipe.MAX_BYTES + " bytes");
            }
            byte[] all = new byte[start.length + rest.length];
            System.arraycopy(start, 0, all, 0, start.length);
            System.arraycopy(rest, 0, all, start.length, rest.length);
            ZlibRecipe recipe;
            try {
                recipe = ZlibRecipe.parse(all);
            } catch (MalformedRecordException e) {
                throw new IOException("the layer's zlib recipe is damaged: " + e.getMessage(), e);
            }
            try (InputStream decompressed = decompressed(ctx, recipe, dataIn, data)) {
                return replay.encode(recipe, decompressed, out);
            }
        }
        side.unread(start);
        return encoder.encode(dataIn, side, out);
    }

    /**
     * A recipe's decompressed bytes: the data entries as they are ({@code dataIn}), or their tar split joined again,
     * the metadata read from the start of {@code dataIn} and the bodies by a second stream over the rest.
     */
    private static InputStream decompressed(EngineContext ctx, ZlibRecipe recipe, InputStream dataIn,
                                            List<ManifestEntry> data) throws IOException {
        long total = length(data);
        long metadata = recipe.tarMetadata();
        if (metadata == 0) {
            return dataIn;
        }
        if (metadata > total) {
            throw new IOException("the layer's tar metadata (" + metadata + " bytes) is longer than its data ("
                    + total + ")");
        }
        return TarSplit.join(new BoundedInputStream(dataIn, metadata), metadata,
                stream(ctx, data, metadata, total - metadata));
    }

    private static long length(List<ManifestEntry> entries) {
        long total = 0;
        for (ManifestEntry e : entries) {
            total += e.length();
        }
        return total;
    }

    private static ObjectReadStream stream(EngineContext ctx, List<ManifestEntry> entries, long offset, long length)
            throws IOException {
        ObjectReadStream s = new ObjectReadStream(ctx, entries, offset, length);
        try {
            s.start();
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    /** The pipe's bytes; at its end, the encoder's failure (if any) and a check that all {@code size} came. */
    private static final class Checked extends InputStream {
        private final PipedInputStream in;
        private final AtomicReference<Throwable> failure;
        private final Thread encoder;
        private final long size;
        private long read;

        Checked(PipedInputStream in, AtomicReference<Throwable> failure, Thread encoder, long size) {
            this.in = in;
            this.failure = failure;
            this.encoder = encoder;
            this.size = size;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n;
            try {
                n = in.read(b, off, len);
            } catch (IOException e) {
                throw failed(e);
            }
            if (n < 0) {
                try {
                    encoder.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted waiting for the layer encoder", e);
                }
                if (failure.get() != null || read != size) {
                    throw failed(null);
                }
                return -1;
            }
            read += n;
            return n;
        }

        private IOException failed(IOException cause) {
            Throwable f = failure.get();
            return new IOException("re-encoding the layer failed after " + read + " of " + size + " bytes"
                    + (f == null ? "" : ": " + f), f != null ? f : cause);
        }

        @Override
        public void close() throws IOException {
            in.close(); // the encoder's next write fails and it closes its inputs
        }
    }
}
