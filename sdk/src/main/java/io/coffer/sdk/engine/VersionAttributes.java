package io.coffer.sdk.engine;

import static io.coffer.sdk.engine.EngineContext.backendFailure;

import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.manifest.ManifestCodec;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.ObjectRecord;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * S3's object tagging and ACL actions on a version, current or not, that keep the version's id: the new tags and ACL
 * go into the version's sealed attribute record ({@link VersionAttributeRecords}, which overrides its manifest's and
 * which reindex restores) and into its metadata row, never into a new manifest.
 *
 * <p>Crash order, as {@link ObjectLocks#change} orders a lock change: the record is written first (carrying the
 * digest of the values it replaces), then the row is changed in one metadata transaction. A kill in between leaves a
 * record ahead of its row: the change was not acknowledged, reads show the old values, reindex would apply it, and
 * fsck, seeing that the row holds exactly what the record replaced, does not count it as damage. If the transaction
 * refuses, or decided from other values than the record was written with (a concurrent change), the record is
 * written again with what the row holds.
 */
final class VersionAttributes {
    private static final Logger LOG = LoggerFactory.getLogger(VersionAttributes.class);

    private final EngineContext ctx;
    private final MetadataStore meta;
    private final ObjectReads reads;

    VersionAttributes(EngineContext ctx, ObjectReads reads) {
        this.ctx = ctx;
        this.meta = ctx.config.metadata();
        this.reads = reads;
    }

    /**
     * Applies {@code revision} to the tags and ACL of the version with the client's version id ({@code versionId};
     * null: the current version), which must change nothing else (IllegalArgumentException). NoSuchKey, NoSuchVersion,
     * InvalidArgument and MethodNotAllowed (a delete marker) as a read of that version answers; PreconditionFailed when
     * the version named by no id stopped being current in between. Returns the version as it is now.
     */
    ObjectInfo revise(String bucket, String key, String versionId, UnaryOperator<ObjectAttributes> revision) {
        ObjectRecord version = reads.record(bucket, key, versionId);
        String id = version.versionId();
        ObjectAttributes before = ObjectReads.info(version).attributes();
        VersionAttributeRecords.Values held = VersionAttributeRecords.Values.of(before);
        VersionAttributeRecords.Values intended = VersionAttributeRecords.Values.of(revised(before, revision));
        if (intended.equals(held)) {
            return ObjectReads.info(version);
        }
        writeRecord(version, held, intended);
        AtomicReference<VersionAttributeRecords.Values> seen = new AtomicReference<>();
        Optional<ObjectRecord> stored;
        try {
            stored = meta.updateObjectAttributes(bucket, key, version.clientVersionId(), row -> {
                if (!row.versionId().equals(id)) {
                    // the key's null version, or its current one, is another version now
                    throw CofferException.of(ErrorCode.PRECONDITION_FAILED,
                            "The object changed while its attributes were being changed.");
                }
                ObjectInfo now = ObjectReads.info(row);
                seen.set(VersionAttributeRecords.Values.of(now.attributes()));
                return ManifestCodec.encodeAttributes(revised(now.attributes(), revision), now.partSizes(),
                        now.partChecksums());
            });
        } catch (RuntimeException e) {
            restoreRecord(version);
            throw e;
        }
        if (stored.isEmpty()) {
            // removed meanwhile: its record is an orphan, which gc collects
            ctx.deleteQuietly(BackendLayout.attributes(id));
            throw versionId == null ? CofferException.noSuchKey(bucket, key)
                    : CofferException.of(ErrorCode.NO_SUCH_VERSION, "The specified version does not exist.");
        }
        ObjectInfo info = ObjectReads.info(stored.get());
        VersionAttributeRecords.Values now = VersionAttributeRecords.Values.of(info.attributes());
        if (!now.equals(intended)) {
            writeRecord(stored.get(), seen.get(), now);
        }
        return info;
    }

    /** The version's attributes as {@code revision} changes them; only its tags and ACL may change. */
    private static ObjectAttributes revised(ObjectAttributes a, UnaryOperator<ObjectAttributes> revision) {
        ObjectAttributes r = revision.apply(a);
        VersionAttributeRecords.Values values = VersionAttributeRecords.Values.of(r);
        if (!values.applyTo(a).equals(r)) {
            throw new IllegalArgumentException("a revision of an existing version may change only its tags and ACL");
        }
        return r;
    }

    /**
     * The attributes a version restored by reindex gets from its record: its manifest's, with the record's tags and
     * ACL. Empty, changing nothing, when the record names no restored version.
     */
    static Optional<ObjectRecord> restore(MetadataStore meta, VersionAttributeRecords.Opened r) {
        Optional<ObjectRecord> version = rowOf(meta, r.bucket(), r.key(), r.versionId());
        if (version.isEmpty()) {
            return version;
        }
        return meta.updateObjectAttributes(r.bucket(), r.key(), version.get().clientVersionId(), row -> {
            if (!row.versionId().equals(r.versionId())) {
                throw CofferException.of(ErrorCode.CONFLICT_RETRY, "the version changed during reindex");
            }
            ObjectInfo now = ObjectReads.info(row);
            return ManifestCodec.encodeAttributes(r.values().applyTo(now.attributes()), now.partSizes(),
                    now.partChecksums());
        });
    }

    /** The metadata row of the version with this (engine) id, current or not, null version or not. */
    static Optional<ObjectRecord> rowOf(MetadataStore meta, String bucket, String key, String versionId) {
        return meta.objectVersion(bucket, key, versionId)
                .or(() -> meta.objectVersion(bucket, key, BucketVersioning.NULL_VERSION))
                .filter(v -> v.versionId().equals(versionId));
    }

    /** After a refused or failed transaction: the record says again what the row holds (best effort). */
    private void restoreRecord(ObjectRecord version) {
        try {
            Optional<ObjectRecord> row = rowOf(meta, version.bucket(), version.key(), version.versionId());
            if (row.isEmpty()) {
                ctx.deleteQuietly(BackendLayout.attributes(version.versionId()));
                return;
            }
            VersionAttributeRecords.Values values =
                    VersionAttributeRecords.Values.of(ObjectReads.info(row.get()).attributes());
            writeRecord(row.get(), values, values);
        } catch (RuntimeException e) {
            LOG.warn("could not write the attribute record of version {} again (fsck reports it): {}",
                    version.versionId(), e.toString());
        }
    }

    private void writeRecord(ObjectRecord version, VersionAttributeRecords.Values previous,
                             VersionAttributeRecords.Values values) {
        try {
            ctx.config.blobs().put(BackendLayout.attributes(version.versionId()), BlobContent.of(
                    VersionAttributeRecords.seal(ctx.config.masterKey(), version.bucket(), version.key(),
                            version.versionId(), previous, values)));
        } catch (IOException e) {
            throw backendFailure("could not write the version's attribute record", e);
        }
    }
}
