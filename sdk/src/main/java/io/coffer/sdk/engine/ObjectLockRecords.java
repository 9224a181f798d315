package io.coffer.sdk.engine;

import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.ObjectLockMode;
import io.coffer.sdk.codec.BinaryReader;
import io.coffer.sdk.codec.BinaryWriter;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.crypto.MasterKey;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The sealed Object Lock record of one version (docs/FORMAT.md, "Object lock records"), blob
 * {@link BackendLayout#lock}: the version it belongs to (bucket, key, version id) and its lock. It is a blob of its
 * own, not part of the manifest, so that PutObjectRetention and PutObjectLegalHold rewrite it in place and the
 * version keeps its id (a manifest in a group cannot be rewritten alone).
 */
final class ObjectLockRecords {
    static final String PURPOSE = "object-lock";
    private static final byte[] MAGIC = "CFLK".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;
    private static final int LEGAL_HOLD = 1;

    /** A lock record opened: whose lock it is, and the lock. */
    record Opened(String bucket, String key, String versionId, ObjectLock lock) {
    }

    private ObjectLockRecords() {
    }

    static byte[] seal(MasterKey key, String bucket, String objectKey, String versionId, ObjectLock lock) {
        BinaryWriter w = new BinaryWriter(64 + objectKey.length()).raw(MAGIC).u8(VERSION).string(bucket)
                .string(objectKey).string(versionId)
                .u8(lock.mode() == null ? 0 : lock.mode().ordinal() + 1)
                .u64(lock.retainUntil() == null ? 0 : lock.retainUntil().toEpochMilli())
                .u8(lock.legalHold() ? LEGAL_HOLD : 0);
        return key.seal(PURPOSE, BackendLayout.lock(versionId), w.toByteArray());
    }

    /** Opens the record stored as {@code blobName}, checking that it is the one that belongs there. */
    static Opened open(MasterKey key, String blobName, byte[] sealed)
            throws ChunkIntegrityException, MalformedRecordException {
        BinaryReader r = new BinaryReader(key.open(PURPOSE, blobName, sealed));
        r.expect(MAGIC);
        if (r.u8() != VERSION) {
            throw new MalformedRecordException("unknown object lock record version");
        }
        String bucket = r.string();
        String objectKey = r.string();
        String versionId = r.string();
        int mode = r.u8();
        long until = r.u64();
        int flags = r.u8();
        r.finish();
        if (bucket == null || objectKey == null || versionId == null
                || !BackendLayout.lock(versionId).equals(blobName)) {
            throw new MalformedRecordException("object lock record names another version");
        }
        if (mode > ObjectLockMode.values().length || (mode == 0) != (until == 0) || (flags & ~LEGAL_HOLD) != 0) {
            throw new MalformedRecordException("unknown object lock mode or flags");
        }
        ObjectLock lock = new ObjectLock(mode == 0 ? null : ObjectLockMode.values()[mode - 1],
                mode == 0 ? null : Instant.ofEpochMilli(until), flags == LEGAL_HOLD);
        return new Opened(bucket, objectKey, versionId, lock);
    }
}
