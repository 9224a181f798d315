package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.layer.LayerModePolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * PUT dispatch for layer-mode buckets: a body that starts with gzip's magic (1f 8b), whatever its key or content type,
 * is spilled to a temporary file (memory stays bounded whatever its size) with its MD5, and offered to the
 * {@link LayerWriter}; anything else, or a layer the writer declines, goes the ordinary way, from the file if it was
 * spilled. Disk: the spilled object and, while it is checked, its token stream and side information.
 */
final class LayerPuts {
    /** The engine's ordinary write of a body. */
    interface Ordinary {
        ObjectInfo write(InputStream body);
    }

    /** The engine's commit of what the layer writer wrote. */
    interface Commit {
        ObjectInfo commit(ObjectWriter writer, ObjectWriter.Result written, int layerSide);
    }

    private static final int COPY_BUFFER = 64 << 10;
    private final EngineContext ctx;
    private final LayerModePolicy policy;
    private final LayerWriter writer;
    private final Map<String, LayerState> states = new ConcurrentHashMap<>();

    LayerPuts(EngineContext ctx) {
        this.ctx = ctx;
        this.policy = ctx.config.layers();
        this.writer = new LayerWriter(ctx, policy);
    }

    /**
     * Whether a PUT of {@code contentLength} bytes (-1: unknown) to {@code bucket} is looked at here: the bucket is in
     * layer mode, keys are message-locked (cluster keys need it), the object may deduplicate (not excluded by the
     * dedup policy) and it is not small enough to be inline.
     */
    boolean applies(String bucket, String key, long contentLength) {
        return ctx.config.keySource().messageLocked() && ctx.config.dedupPolicy().objectMayDedup(bucket, key)
                && (contentLength < 0 || contentLength > ctx.config.inlineLimit()) && modeOf(bucket).isPresent();
    }

    /** The bucket's layer mode: its bucket-level document if it has one, else the config key's. */
    private Optional<String> modeOf(String bucket) {
        return policy.modeOf(bucket, ctx.config.metadata().bucketConfigs(bucket).get(LayerModePolicy.BUCKET_CONFIG));
    }

    ObjectInfo put(PutObjectRequest request, InputStream body, Ordinary ordinary, Commit commit) {
        PushbackInputStream in = new PushbackInputStream(body, 2);
        byte[] magic = readClient(in, 2);
        try {
            in.unread(magic, 0, magic.length);
        } catch (IOException e) {
            throw new IllegalStateException("a pushback buffer of 2 takes back 2 bytes", e);
        }
        if (magic.length < 2 || (magic[0] & 0xff) != 0x1f || (magic[1] & 0xff) != 0x8b) {
            return ordinary.write(in);
        }
        Path spill = null;
        try {
            spill = Files.createTempFile("coffer-layer-", ".gz");
            MessageDigest md5 = Md5Tap.newMd5();
            long size = spill(in, spill, md5);
            long expected = request.contentLength();
            if (expected >= 0 && size != expected) {
                throw CofferException.of(ErrorCode.INCOMPLETE_BODY, "You did not provide the number of bytes "
                        + "specified by the Content-Length HTTP header (got " + size + " of " + expected + ").");
            }
            if (size > ctx.config.inlineLimit()) {
                LayerState state = stateOf(request.bucket());
                LayerWriter.Written w = writer.write(state, request.bucket(), request.key(), spill, size,
                        md5.digest());
                if (w != null) {
                    return commit.commit(w.writer(), w.result(), w.sideEntries());
                }
            }
            try (InputStream again = Files.newInputStream(spill)) {
                return ordinary.write(again);
            }
        } catch (IOException e) {
            throw EngineContext.backendFailure("could not store the layer", e);
        } finally {
            if (spill != null) {
                try {
                    Files.deleteIfExists(spill);
                } catch (IOException ignored) {
                    // a temporary file: the platform's cleanup removes it
                }
            }
        }
    }

    /**
     * The bucket's similarity state, loaded from its journal on first use and again when the bucket's mode changed
     * (the journal replays under the new mode); shared with multipart completions.
     */
    LayerState stateOf(String bucket) throws IOException {
        String mode = modeOf(bucket).orElseThrow(() -> CofferException.of(ErrorCode.INTERNAL_ERROR,
                "layer mode of bucket " + bucket + " was turned off during the PUT"));
        try {
            return states.compute(bucket, (b, known) -> {
                if (known != null && known.mode().equals(mode)) {
                    return known;
                }
                try {
                    return LayerState.load(ctx, b, mode, policy.threshold(), policy.keyAssignment());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Copies the client's body to {@code file}, digesting it; its failures are the client's. */
    /** The layer writer, shared with multipart completions. */
    LayerWriter writer() {
        return writer;
    }

    private static long spill(InputStream in, Path file, MessageDigest md5) throws IOException {
        byte[] buf = new byte[COPY_BUFFER];
        long size = 0;
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int n = readClient(in, buf); n >= 0; n = readClient(in, buf)) {
                md5.update(buf, 0, n);
                out.write(buf, 0, n);
                size += n;
            }
            return size;
        }
    }

    private static byte[] readClient(InputStream in, int n) {
        try {
            return in.readNBytes(n);
        } catch (IOException e) {
            throw clientFailure(e);
        }
    }

    private static int readClient(InputStream in, byte[] buf) {
        try {
            return in.read(buf);
        } catch (IOException e) {
            throw clientFailure(e);
        }
    }

    private static CofferException clientFailure(IOException e) {
        if (e.getCause() instanceof CofferException ce) {
            return ce;
        }
        return CofferException.of(ErrorCode.INCOMPLETE_BODY, "The request body could not be read: "
                + e.getMessage(), e);
    }
}
