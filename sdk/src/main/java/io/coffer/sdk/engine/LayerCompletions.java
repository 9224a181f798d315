package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.manifest.Manifest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;

/**
 * Layer mode for multipart uploads (docs/FORMAT.md "Layer-mode objects"): at CompleteMultipartUpload, an upload into
 * a layer-mode bucket whose assembled bytes start with gzip's magic is read back from its parts' chunks, in order,
 * into a temporary file (memory stays bounded whatever its size) and offered to the {@link LayerWriter}, as a single
 * PUT's body is. What the writer stores is committed with the upload's part sizes, part checksums and multipart ETag
 * in a layer manifest; the parts' chunks are then referenced by nothing and left to garbage collection. An upload
 * that is not gzip, or that the writer declines, is committed from its parts as it would be without layer mode.
 *
 * <p>Crash safety is the single PUT's: the re-encoded chunks are durable before the one metadata commit that both
 * creates the object and ends the upload, so a crash before it leaves the upload completable (and the new packs to
 * garbage collection) and a crash after it leaves the object committed.
 */
final class LayerCompletions {
    private static final int COPY_BUFFER = 64 << 10;

    private final EngineContext ctx;
    private final LayerPuts layers;
    private final ObjectReads reads;
    private final ObjectCommits commits;

    LayerCompletions(EngineContext ctx, LayerPuts layers, ObjectReads reads, ObjectCommits commits) {
        this.ctx = ctx;
        this.layers = layers;
        this.reads = reads;
        this.commits = commits;
    }

    /**
     * Commits the upload {@code uploadId} as a layer-mode object if {@code assembled} (its manifest made of its parts'
     * chunks, not committed) is a gzip object the bucket's layer mode takes; null when it is to be committed as it is.
     */
    ObjectInfo commitAsLayer(Manifest assembled, Precondition precondition, String uploadId) {
        if (!layers.applies(assembled.bucket(), assembled.key(), assembled.size())) {
            return null;
        }
        // the layer writer's packs do not know the partially decoded size in advance: a long body's bound
        try (BufferBudget.Reservation reserved = ctx.writeBudget.reserve(ObjectWriter.bufferBound(ctx.config, -1,
                0))) {
            LayerWriter.Written w = reencode(assembled);
            if (w == null) {
                return null;
            }
            try {
                Manifest layer = new Manifest(assembled.bucket(), assembled.key(), assembled.versionId(),
                        assembled.size(), assembled.etag(), assembled.lastModified(), assembled.attributes(),
                        assembled.partSizes(), assembled.partChecksums(), w.result().entries(), null,
                        w.sideEntries());
                return commits.commit(layer, w.result().newChunks(), precondition, uploadId, w.writer());
            } catch (RuntimeException e) {
                w.writer().discard(w.result());
                throw e;
            }
        }
    }

    /** The layer writer's encoding of the assembled object, or null if it is not gzip or is declined. */
    private LayerWriter.Written reencode(Manifest assembled) {
        Path spill = null;
        try (InputStream in = reads.content(assembled, 0, assembled.size())) {
            byte[] magic = in.readNBytes(2);
            if (magic.length < 2 || (magic[0] & 0xff) != 0x1f || (magic[1] & 0xff) != 0x8b) {
                return null;
            }
            spill = Files.createTempFile("coffer-layer-", ".gz");
            MessageDigest md5 = Md5Tap.newMd5();
            md5.update(magic);
            long size = magic.length + spill(in, spill, magic, md5);
            if (size != assembled.size()) {
                throw new IOException("the parts read back as " + size + " bytes, not " + assembled.size());
            }
            return layers.writer().write(layers.stateOf(assembled.bucket()), assembled.bucket(), assembled.key(),
                    spill, size, md5.digest());
        } catch (IOException e) {
            throw e.getCause() instanceof CofferException ce ? ce
                    : EngineContext.backendFailure("could not store the upload as a layer", e);
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

    /** Writes {@code head} then the rest of {@code in} to {@code file}, digesting the rest; the rest's length. */
    private static long spill(InputStream in, Path file, byte[] head, MessageDigest md5) throws IOException {
        byte[] buf = new byte[COPY_BUFFER];
        long size = 0;
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(head);
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                md5.update(buf, 0, n);
                out.write(buf, 0, n);
                size += n;
            }
            return size;
        }
    }
}
