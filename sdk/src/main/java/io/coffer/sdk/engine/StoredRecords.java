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
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

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
    /** Far more kinds of bucket configuration than S3 has; bounds what a damaged record can make us read. */
    private static final int MAX_BUCKET_CONFIGS = 64;

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

    /** A bucket and its configuration documents by name (tagging, CORS ...), as its sealed record holds them. */
    public record BucketRecord(Bucket bucket, Map<String, byte[]> configs) {
        public BucketRecord {
            configs = Collections.unmodifiableMap(new TreeMap<>(configs));
        }
    }

    public static byte[] sealBucket(MasterKey key, Bucket b) {
        return sealBucket(key, b, Map.of());
    }

    /** Version 1 without configuration documents, version 2 with (docs/FORMAT.md, "Bucket records"). */
    public static byte[] sealBucket(MasterKey key, Bucket b, Map<String, byte[]> configs) {
        BinaryWriter w = new BinaryWriter(64).raw(BUCKET_MAGIC).u8(configs.isEmpty() ? 1 : 2).string(b.name())
                .string(b.owner()).string(b.region()).u64(b.created().toEpochMilli());
        if (!configs.isEmpty()) {
            w.uvarint(configs.size());
            new TreeMap<>(configs).forEach((name, doc) -> w.string(name).bytes(doc));
        }
        return key.seal(BUCKET, bucketBlob(key, b.name()), w.toByteArray());
    }

    public static Bucket openBucket(MasterKey key, String blobName, byte[] sealed)
            throws ChunkIntegrityException, MalformedRecordException {
        return openBucketRecord(key, blobName, sealed).bucket();
    }

    public static BucketRecord openBucketRecord(MasterKey key, String blobName, byte[] sealed)
            throws ChunkIntegrityException, MalformedRecordException {
        BinaryReader r = new BinaryReader(key.open(BUCKET, blobName, sealed));
        r.expect(BUCKET_MAGIC);
        int version = r.u8();
        if (version != 1 && version != 2) {
            throw new MalformedRecordException("unknown bucket record version");
        }
        Bucket b = new Bucket(r.string(), r.string(), r.string(), Instant.ofEpochMilli(r.u64()));
        Map<String, byte[]> configs = new TreeMap<>();
        if (version == 2) {
            int n = r.uvarintAtMost(MAX_BUCKET_CONFIGS);
            for (int i = 0; i < n; i++) {
                String name = r.string();
                if (name == null || configs.put(name, r.bytes()) != null) {
                    throw new MalformedRecordException("bucket configuration without a name, or twice");
                }
            }
        }
        r.finish();
        if (b.name() == null || !bucketBlob(key, b.name()).equals(blobName)) {
            throw new MalformedRecordException("bucket record names another bucket");
        }
        return new BucketRecord(b, configs);
    }
}
