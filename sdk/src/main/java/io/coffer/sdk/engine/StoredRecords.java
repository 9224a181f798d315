package io.coffer.sdk.engine;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.codec.BinaryReader;
import io.coffer.sdk.codec.BinaryWriter;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.manifest.ManifestCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Sealing and opening of the records Coffer keeps on the backend besides packs: manifests and bucket records
 * (docs/FORMAT.md). Each is sealed under the master key with its purpose and blob name as associated data.
 */
public final class StoredRecords {
    static final String MANIFEST = "manifest";
    static final String PART = "part";
    static final String BUCKET = "bucket";
    static final String TOMBSTONE = "tombstone";
    private static final byte[] BUCKET_MAGIC = "CFBK".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TOMBSTONE_MAGIC = "CFTS".getBytes(StandardCharsets.US_ASCII);

    private StoredRecords() {
    }

    /** The blob name of a bucket's record: keyed by the master key so it does not reveal the bucket's name. */
    public static String bucketBlob(MasterKey key, String bucket) {
        return BackendLayout.bucket(key.blindName(BUCKET, bucket));
    }

    public static byte[] sealManifest(MasterKey key, Manifest m) {
        return key.seal(MANIFEST, BackendLayout.manifest(m.versionId()), ManifestCodec.encode(m));
    }

    /** Opens the manifest stored as blob {@code blobName}, checking it is the manifest that belongs there. */
    public static Manifest openManifest(MasterKey key, String blobName, byte[] sealed)
            throws ChunkIntegrityException, MalformedRecordException {
        Manifest m = ManifestCodec.decode(key.open(MANIFEST, blobName, sealed));
        if (!BackendLayout.manifest(m.versionId()).equals(blobName)) {
            throw new MalformedRecordException("manifest names another version");
        }
        return m;
    }

    /**
     * The tombstone of a grouped version: says only "this version is gone", and is authentic because the seal binds
     * it to its name, so a backend cannot make reindex drop a live object by inventing one.
     */
    static byte[] sealTombstone(MasterKey key, String versionId) {
        return key.seal(TOMBSTONE, BackendLayout.tombstone(versionId),
                new BinaryWriter(8).raw(TOMBSTONE_MAGIC).u8(1).toByteArray());
    }

    /** Opens the tombstone stored as {@code blobName}; returns the version id it buries. */
    static String openTombstone(MasterKey key, String blobName, byte[] sealed)
            throws ChunkIntegrityException, MalformedRecordException {
        BinaryReader r = new BinaryReader(key.open(TOMBSTONE, blobName, sealed));
        r.expect(TOMBSTONE_MAGIC);
        if (r.u8() != 1) {
            throw new MalformedRecordException("unknown tombstone version");
        }
        r.finish();
        return BackendLayout.idOf(blobName);
    }

    static byte[] sealPart(MasterKey key, String uploadId, int partNumber, Manifest m) {
        return key.seal(PART, uploadId + "/" + partNumber, ManifestCodec.encode(m));
    }

    static Manifest openPart(MasterKey key, String uploadId, int partNumber, byte[] sealed)
            throws ChunkIntegrityException, MalformedRecordException {
        return ManifestCodec.decode(key.open(PART, uploadId + "/" + partNumber, sealed));
    }

    public static byte[] sealBucket(MasterKey key, Bucket b) {
        byte[] plain = new BinaryWriter(64).raw(BUCKET_MAGIC).u8(1).string(b.name()).string(b.owner())
                .string(b.region()).u64(b.created().toEpochMilli()).toByteArray();
        return key.seal(BUCKET, bucketBlob(key, b.name()), plain);
    }

    public static Bucket openBucket(MasterKey key, String blobName, byte[] sealed)
            throws ChunkIntegrityException, MalformedRecordException {
        BinaryReader r = new BinaryReader(key.open(BUCKET, blobName, sealed));
        r.expect(BUCKET_MAGIC);
        if (r.u8() != 1) {
            throw new MalformedRecordException("unknown bucket record version");
        }
        Bucket b = new Bucket(r.string(), r.string(), r.string(), Instant.ofEpochMilli(r.u64()));
        r.finish();
        if (b.name() == null || !bucketBlob(key, b.name()).equals(blobName)) {
            throw new MalformedRecordException("bucket record names another bucket");
        }
        return b;
    }
}
