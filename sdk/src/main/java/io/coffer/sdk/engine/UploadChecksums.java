package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.UploadRecord;
import io.coffer.sdk.checksum.ChecksumAlgorithm;
import io.coffer.sdk.checksum.ChecksumType;
import io.coffer.sdk.checksum.MultipartChecksum;
import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.manifest.ManifestCodec;
import io.coffer.sdk.meta.PartRecord;
import java.util.List;
import java.util.Map;

/**
 * The checksums of a multipart upload as the metadata store keeps them, in the engine's opaque attribute bytes (no
 * schema change, and uploads and parts stored before them read as having none): an upload's record holds the object
 * attributes with, as its one checksum entry, the algorithm mapped to the type (CRC32 to COMPOSITE); a part's record
 * holds attributes whose checksums are the part's. Also the checks CompleteMultipartUpload makes of them.
 */
final class UploadChecksums {
    private UploadChecksums() {
    }

    static byte[] encodeUpload(ObjectAttributes attributes, MultipartChecksum checksum) {
        ObjectAttributes a = attributes == null ? ObjectAttributes.EMPTY : attributes;
        a = a.withChecksums(checksum == null ? Map.of()
                : Map.of(checksum.algorithm().name(), checksum.type().name()));
        return ManifestCodec.encodeAttributes(a, List.of());
    }

    /** The upload's checksum algorithm and type, or null when it was created without one. */
    static MultipartChecksum checksumOf(UploadRecord upload) {
        Map<String, String> c = decode(upload.attributes()).checksums();
        if (c.isEmpty()) {
            return null;
        }
        Map.Entry<String, String> e = c.entrySet().iterator().next();
        try {
            return new MultipartChecksum(ChecksumAlgorithm.valueOf(e.getKey()), ChecksumType.valueOf(e.getValue()));
        } catch (IllegalArgumentException bad) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "stored upload checksum is malformed", bad);
        }
    }

    /**
     * The attributes the completed object starts from (its checksum is made from the parts'; the lock the upload
     * asked for goes to the version, not into its attributes: {@link UploadLocks}).
     */
    static ObjectAttributes objectAttributes(UploadRecord upload) {
        return UploadLocks.unstamp(decode(upload.attributes())).withChecksums(Map.of());
    }

    /** The Object Lock the upload asked for on creation; NONE if none. */
    static ObjectLock lockOf(UploadRecord upload) {
        return UploadLocks.lockOf(decode(upload.attributes()));
    }

    static byte[] encodePart(Map<String, String> checksums) {
        return checksums.isEmpty() ? new byte[0]
                : ManifestCodec.encodeAttributes(ObjectAttributes.EMPTY.withChecksums(checksums), List.of());
    }

    /** The part's checksums by algorithm name; empty for a part stored without (or before) them. */
    static Map<String, String> partChecksums(PartRecord part) {
        return part.attributes().length == 0 ? Map.of() : decode(part.attributes()).checksums();
    }

    /** False when the request names a checksum for the part that differs from the stored part's (S3: InvalidPart). */
    static boolean partMatches(PartRecord have, CompletedPart want) {
        Map<String, String> stored = partChecksums(have);
        for (Map.Entry<String, String> c : want.checksums().entrySet()) {
            String s = stored.get(c.getKey());
            if (s != null && !s.equals(c.getValue().trim())) {
                return false;
            }
        }
        return true;
    }

    /**
     * BadDigest when the client's checksum of the object in the upload's algorithm differs from the one made of the
     * parts' (a composite value may be given with or without its {@code -N}).
     */
    static void checkObjectChecksum(MultipartChecksum checksum, String objectSum, Map<String, String> claimed) {
        String want = claimed.get(checksum.algorithm().name());
        if (want == null) {
            return;
        }
        want = want.trim();
        String bare = objectSum.indexOf('-') >= 0 ? objectSum.substring(0, objectSum.indexOf('-')) : objectSum;
        if (!want.equals(objectSum) && !want.equals(bare)) {
            throw CofferException.of(ErrorCode.BAD_DIGEST, "The " + checksum.algorithm().headerName()
                    + " you specified did not match the calculated checksum.");
        }
    }

    private static ObjectAttributes decode(byte[] bytes) {
        try {
            return ManifestCodec.decodeAttributes(bytes).attributes();
        } catch (MalformedRecordException e) {
            throw CofferException.of(ErrorCode.INTERNAL_ERROR, "stored attributes are malformed", e);
        }
    }
}
