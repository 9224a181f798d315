package io.coffer.sdk.engine;

import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.codec.BinaryReader;
import io.coffer.sdk.codec.BinaryWriter;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.crypto.ChunkIntegrityException;
import io.coffer.sdk.crypto.MasterKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Map;

/**
 * The sealed attribute record of one version (docs/FORMAT.md, "Version attribute records"), blob
 * {@link BackendLayout#attributes}: the version it belongs to and the tags and ACL it holds since a tagging or ACL
 * action changed them, which override what its manifest holds. It is a blob of its own, rewritten in place, so that
 * the version keeps its id (a manifest in a group cannot be rewritten alone). It also carries the digest of the values
 * its row held before the change, so that fsck can tell a change a crash interrupted (record written, row not yet
 * committed) from damage.
 */
final class VersionAttributeRecords {
    static final String PURPOSE = "version-attributes";
    private static final byte[] MAGIC = "CFVA".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;
    private static final int DIGEST = 32;
    private static final int MAX_TAGS = 10;

    /** What the tagging and ACL actions change on a version: its tag set and its ACL (null: private). */
    record Values(Map<String, String> tags, String acl) {
        Values {
            tags = Map.copyOf(tags);
        }

        static Values of(ObjectAttributes a) {
            return new Values(a.tags(), a.headers().get(ObjectAttributes.ACL_HEADER));
        }

        /** {@code a} with these tags and this ACL. */
        ObjectAttributes applyTo(ObjectAttributes a) {
            return a.withTags(tags).withAcl(acl);
        }

        /** SHA-256 of the values' encoding: what a record keeps of the values it replaced. */
        byte[] digest() {
            try {
                return MessageDigest.getInstance("SHA-256").digest(encode(new BinaryWriter(64)).toByteArray());
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is part of every JDK", e);
            }
        }

        private BinaryWriter encode(BinaryWriter w) {
            return w.stringMap(tags).string(acl);
        }
    }

    /** A record opened: whose it is, the digest of the values its change replaced, and the values it holds. */
    record Opened(String bucket, String key, String versionId, byte[] previous, Values values) {
        /** Whether {@code row} is what this record's change replaced: the change was never committed. */
        boolean replaced(Values row) {
            return Arrays.equals(previous, row.digest());
        }
    }

    private VersionAttributeRecords() {
    }

    static byte[] seal(MasterKey key, String bucket, String objectKey, String versionId, Values previous,
                       Values values) {
        BinaryWriter w = new BinaryWriter(128 + objectKey.length()).raw(MAGIC).u8(VERSION).string(bucket)
                .string(objectKey).string(versionId).raw(previous.digest());
        values.encode(w);
        return key.seal(PURPOSE, BackendLayout.attributes(versionId), w.toByteArray());
    }

    /** Opens the record stored as {@code blobName}, checking that it is the one that belongs there. */
    static Opened open(MasterKey key, String blobName, byte[] sealed)
            throws ChunkIntegrityException, MalformedRecordException {
        BinaryReader r = new BinaryReader(key.open(PURPOSE, blobName, sealed));
        r.expect(MAGIC);
        if (r.u8() != VERSION) {
            throw new MalformedRecordException("unknown version attribute record version");
        }
        String bucket = r.string();
        String objectKey = r.string();
        String versionId = r.string();
        byte[] previous = r.raw(DIGEST);
        Map<String, String> tags = r.stringMap();
        String acl = r.string();
        r.finish();
        if (bucket == null || objectKey == null || versionId == null
                || !BackendLayout.attributes(versionId).equals(blobName)) {
            throw new MalformedRecordException("version attribute record names another version");
        }
        if (tags.size() > MAX_TAGS) {
            throw new MalformedRecordException("version attribute record holds an invalid tag set");
        }
        return new Opened(bucket, objectKey, versionId, previous, new Values(tags, acl));
    }
}
