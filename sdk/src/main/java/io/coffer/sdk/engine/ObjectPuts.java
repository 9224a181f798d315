package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.Names;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestEntry;
import java.io.InputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * PutObject in the engine: the body written by an {@link ObjectWriter} (or the layer path, {@link LayerPuts}) within
 * the write budget, its Content-MD5 and checksums checked, a customer key's wrapping applied, and the manifest
 * committed through {@link ObjectCommits}; what was written is deleted again if the commit does not happen.
 */
final class ObjectPuts {
    private final EngineContext ctx;
    private final Buckets buckets;
    private final ObjectCommits commits;
    private final LayerPuts layerPuts;

    ObjectPuts(EngineContext ctx, Buckets buckets, ObjectCommits commits, LayerPuts layerPuts) {
        this.ctx = ctx;
        this.buckets = buckets;
        this.commits = commits;
        this.layerPuts = layerPuts;
    }

    /** Writes the body and commits it as the key's new version (layer mode where the bucket's policy applies). */
    ObjectInfo put(PutObjectRequest request, InputStream body, ObjectLock lock) {
        Names.checkKey(request.key());
        buckets.head(request.bucket(), request.bucketRecord()); // the commit checks it again anyway
        Preconditions.precheck(ctx.config.metadata(), request.bucket(), request.key(), request.precondition());
        if (request.customerKey() == null && layerPuts.applies(request.bucket(), request.key(),
                request.contentLength())) {
            // the layer writer's packs do not know the partially decoded size in advance: a long body's bound
            try (BufferBudget.Reservation reserved = ctx.writeBudget.reserve(ObjectWriter.bufferBound(ctx.config,
                    -1, 0))) {
                return layerPuts.put(request, body, b -> writeOrdinary(request, b, lock),
                        (writer, written, side) -> commitWritten(request, writer, written, side, lock));
            }
        }
        try (BufferBudget.Reservation reserved = ctx.writeBudget.reserve(ObjectWriter.bufferBound(ctx.config,
                request.contentLength(), inlineLimit(request)))) {
            return writeOrdinary(request, body, lock);
        }
    }

    /** An object under a customer key is never inline: its bytes would be sealed under the master key alone. */
    private int inlineLimit(PutObjectRequest request) {
        return request.customerKey() == null ? ctx.config.inlineLimit() : 0;
    }

    private ObjectInfo writeOrdinary(PutObjectRequest request, InputStream body, ObjectLock lock) {
        ObjectWriter writer = new ObjectWriter(ctx, request.bucket(), request.key(), request.contentLength(),
                inlineLimit(request), request.customerKey() == null ? null
                        : new CustomerKeyWrap(request.customerKey()));
        ObjectWriter.Result written = ObjectCommits.writeBody(writer, body);
        return commitWritten(request, writer, written, Manifest.ORDINARY, lock);
    }

    /** Commits what {@code writer} wrote, or deletes it; {@code layerSide} as in {@link Manifest#layerSide}. */
    private ObjectInfo commitWritten(PutObjectRequest request, ObjectWriter writer, ObjectWriter.Result written,
                                     int layerSide, ObjectLock lock) {
        try {
            if (request.contentMd5() != null && !MessageDigest.isEqual(request.contentMd5(), written.md5())) {
                throw CofferException.of(ErrorCode.BAD_DIGEST,
                        "The Content-MD5 you specified did not match what we received.");
            }
            ObjectAttributes attributes = request.attributes();
            if (request.checksums() != null) {
                Map<String, String> checksums = request.checksums().get();
                if (checksums != null && !checksums.isEmpty()) {
                    attributes = attributes.withChecksums(checksums);
                }
            }
            List<ManifestEntry> entries = written.entries();
            attributes = CustomerKeyWrap.stamp(ctx.config.masterKey(), attributes, request.customerKey());
            if (request.customerKey() != null) {
                entries = new CustomerKeyWrap(request.customerKey()).wrap(entries);
            }
            Manifest manifest = new Manifest(request.bucket(), request.key(), BackendLayout.newId(), written.size(),
                    HexFormat.of().formatHex(written.md5()), Instant.now().truncatedTo(ChronoUnit.MILLIS),
                    attributes, List.of(), List.of(), entries, written.inline(), layerSide);
            return commits.commit(manifest, written.newChunks(), request.precondition(), null, writer, lock);
        } catch (RuntimeException e) {
            writer.discard(written);
            throw e;
        }
    }
}
