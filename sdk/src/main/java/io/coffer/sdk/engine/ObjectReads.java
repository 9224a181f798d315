package io.coffer.sdk.engine;

import static io.coffer.sdk.engine.EngineContext.backendFailure;

import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.ByteRange;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.Names;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectKeyResolver;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestCodec;
import io.coffer.sdk.meta.ObjectRecord;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reading committed objects: the current record of a key, what it says, its opened manifest and its bytes. */
final class ObjectReads {
    private static final Logger LOG = LoggerFactory.getLogger(ObjectReads.class);
    private final EngineContext ctx;
    private final Buckets buckets;
    private final LayerReader layers = new LayerReader();

    ObjectReads(EngineContext ctx, Buckets buckets) {
        this.ctx = ctx;
        this.buckets = buckets;
    }

    /** The key's current record; NoSuchBucket or NoSuchKey if there is none. */
    ObjectRecord record(String bucket, String key) {
        Names.checkKey(key);
        Optional<ObjectRecord> r = ctx.config.metadata().object(bucket, key);
        if (r.isEmpty()) {
            buckets.head(bucket);
            throw CofferException.noSuchKey(bucket, key);
        }
        return r.get();
    }

    /**
     * A version of a key by the client's version id ({@code null} for the null version; a null id: the current
     * version): InvalidArgument for an id Coffer never gives, NoSuchVersion if there is none, MethodNotAllowed for a
     * delete marker.
     */
    ObjectRecord record(String bucket, String key, String versionId) {
        if (versionId == null) {
            return record(bucket, key);
        }
        Names.checkKey(key);
        if (!BucketVersioning.isWellFormedId(versionId)) {
            throw CofferException.of(ErrorCode.INVALID_ARGUMENT, "Invalid version id specified");
        }
        Optional<ObjectRecord> r = ctx.config.metadata().objectVersion(bucket, key, versionId);
        if (r.isEmpty()) {
            buckets.head(bucket);
            throw CofferException.of(ErrorCode.NO_SUCH_VERSION, "The specified version does not exist.");
        }
        if (r.get().deleteMarker()) {
            throw CofferException.of(ErrorCode.METHOD_NOT_ALLOWED,
                    "The specified method is not allowed against a delete marker.");
        }
        return r.get();
    }

    /** The copy source's record; PreconditionFailed if it does not meet the source's conditions. */
    ObjectRecord copySource(CopySource source) {
        ObjectRecord r = record(source.bucket(), source.key(), source.versionId());
        if (CustomerKey.protects(info(r).attributes())) {
            // its entries are wrapped under a key this copy does not have: the gateway copies such objects by reading
            // them with the source's key and writing them anew
            throw CofferException.of(ErrorCode.INVALID_REQUEST, CustomerKeyWrap.NOT_GIVEN);
        }
        return Preconditions.checkCopySource(source, r);
    }

    static ObjectInfo info(ObjectRecord r) {
        ManifestCodec.Attributes a = attributesOf(r.attributes());
        return new ObjectInfo(r.bucket(), r.key(), r.size(), r.etag(), r.lastModified(), a.attributes(),
                a.partSizes(), a.partChecksums(), r.nullVersion() ? null : r.versionId());
    }

    private static ManifestCodec.Attributes attributesOf(byte[] bytes) {
        try {
            return ManifestCodec.decodeAttributes(bytes);
        } catch (MalformedRecordException e) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "stored attributes are malformed", e);
        }
    }

    /**
     * A version's bytes ({@code range} null: all), under the key {@code keys} names for its stored attributes,
     * checked against them (and by {@code check}) before anything is read.
     */
    ObjectContent object(String bucket, String key, String versionId, ByteRange range, Consumer<ObjectInfo> check,
                         ObjectKeyResolver keys) {
        ObjectRecord record = record(bucket, key, versionId);
        ObjectInfo info = info(record);
        CustomerKey customerKey = keys.keyFor(info.attributes());
        CustomerKeyWrap.check(ctx.config.masterKey(), info.attributes(), customerKey);
        check.accept(info);
        ByteRange.Resolved resolved = range == null ? null : range.resolve(record.size());
        long offset = resolved == null ? 0 : resolved.offset();
        long length = resolved == null ? record.size() : resolved.length();
        Manifest m = openManifest(record, customerKey);
        return new ObjectContent(info, resolved, content(m, offset, length));
    }

    /** The bytes of one part of a version (GetObject with {@code partNumber}), keyed as {@link #object}. */
    ObjectContent part(String bucket, String key, String versionId, int partNumber, ObjectKeyResolver keys) {
        ObjectRecord record = record(bucket, key, versionId);
        ObjectInfo info = info(record);
        CustomerKey customerKey = keys.keyFor(info.attributes());
        CustomerKeyWrap.check(ctx.config.masterKey(), info.attributes(), customerKey);
        ByteRange.Resolved part = info.partRange(partNumber);
        Manifest m = openManifest(record, customerKey);
        ByteRange.Resolved range = part.length() == 0 ? null : part;
        return new ObjectContent(info, range, content(m, part.offset(), part.length()));
    }

    /**
     * The record's manifest, opened and checked against the record: the seal binds a manifest to its version id, not
     * to the row it sits in, so a metadata store whose rows were swapped or edited (a shared PostgreSQL is a party of
     * its own, docs/SECURITY.md) could otherwise make a GET serve another object's data.
     */
    /**
     * {@link #openManifest(ObjectRecord)}, with the entries of an object under a customer key unwrapped by
     * {@code customerKey} (already checked against the object's digest); null for any other object.
     */
    Manifest openManifest(ObjectRecord r, CustomerKey customerKey) {
        Manifest m = openManifest(r);
        if (customerKey == null) {
            return m;
        }
        return new Manifest(m.bucket(), m.key(), m.versionId(), m.size(), m.etag(), m.lastModified(), m.attributes(),
                m.partSizes(), m.partChecksums(), new CustomerKeyWrap(customerKey).wrap(m.entries()), m.inline(),
                m.layerSide(), m.nullVersion(), m.deleteMarker());
    }

    Manifest openManifest(ObjectRecord r) {
        Manifest m;
        try {
            m = StoredRecords.openManifest(ctx.config.masterKey(), BackendLayout.manifest(r.versionId()),
                    r.manifest());
        } catch (ChunkIntegrityException | MalformedRecordException e) {
            throw CofferException.of(ErrorCode.INTEGRITY_ERROR, "The object's manifest failed its integrity check.",
                    e);
        }
        String mismatch = mismatch(r, m);
        if (mismatch != null) {
            LOG.error("metadata row of {}/{} (version {}) does not match its sealed manifest: {}; the row was"
                    + " altered or swapped in the metadata store, the object is not served", r.bucket(), r.key(),
                    r.versionId(), mismatch);
            throw CofferException.of(ErrorCode.INTEGRITY_ERROR, "The object's metadata does not match its sealed"
                    + " manifest (" + mismatch + ").");
        }
        return m;
    }

    /** What differs between a metadata row and the sealed manifest it holds, or null if nothing does. */
    static String mismatch(ObjectRecord r, Manifest m) {
        if (!Objects.equals(r.bucket(), m.bucket()) || !Objects.equals(r.key(), m.key())) {
            return "the manifest is of another bucket or key";
        }
        if (!Objects.equals(r.versionId(), m.versionId())) {
            return "the manifest is of version " + m.versionId();
        }
        if (r.size() != m.size()) {
            return "size " + r.size() + " in the row, " + m.size() + " in the manifest";
        }
        if (!Objects.equals(r.etag(), m.etag())) {
            return "ETag " + r.etag() + " in the row, " + m.etag() + " in the manifest";
        }
        return null;
    }

    /**
     * The bytes [offset, offset + length) of an object: out of its manifest if inline, else read from its packs, with
     * the first run of chunks already read and verified, so that damage there fails this call rather than the read.
     */
    InputStream content(Manifest m, long offset, long length) {
        if (m.isInline()) {
            return new ByteArrayInputStream(m.inline(), (int) offset, (int) length);
        }
        if (m.isLayer()) {
            try {
                return layers.open(ctx, m, offset, length);
            } catch (IOException e) {
                throw e.getCause() instanceof CofferException ce ? ce
                        : backendFailure("could not read the layer's data", e);
            }
        }
        ObjectReadStream stream = new ObjectReadStream(ctx, m.entries(), offset, length);
        try {
            stream.start();
        } catch (IOException e) {
            stream.close();
            throw e.getCause() instanceof CofferException ce ? ce
                    : backendFailure("could not read the object's data", e);
        }
        return stream;
    }
}
