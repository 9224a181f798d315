package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.acl.PublicAccess;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.s3.headers.ObjectLockHeaders;
import io.coffer.gateway.s3.headers.TaggingHeader;
import io.coffer.gateway.s3.sse.ServerSideEncryption;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.checksum.ChecksumAlgorithm;
import io.coffer.sdk.checksum.ChecksumType;
import io.coffer.sdk.checksum.MultipartChecksum;
import java.util.Locale;

/**
 * CreateMultipartUpload: stores the object attributes with the upload and returns its id. A checksum algorithm and
 * type the client names ({@code x-amz-checksum-algorithm}, {@code x-amz-checksum-type}) are checked and answered back
 * as S3 does, and kept with the upload: the engine computes each part's checksum in that algorithm and the object's
 * (composite or full-object) on CompleteMultipartUpload.
 */
public final class CreateMultipartUploadHandler implements S3ActionHandler {
    private final Coffer coffer;
    private final PublicAccess access;
    private final ServerSideEncryption encryption;

    public CreateMultipartUploadHandler(Coffer coffer, PublicAccess access, ServerSideEncryption encryption) {
        this.coffer = coffer;
        this.access = access;
        this.encryption = encryption;
    }

    @Override
    public S3Response handle(S3Request r) {
        NameRules.checkKey(r.key());
        ChecksumAlgorithm algorithm = checksumAlgorithm(r);
        ChecksumType type = checksumType(r, algorithm);
        ServerSideEncryption.Write sse = encryption.forWrite(r);
        String uploadId = coffer.createMultipartUpload(r.bucketRecord(), r.key(),
                sse.apply(access.withRequestedAcl(r, ObjectHeaders.attributesFrom(r).withTags(TaggingHeader.tags(r)))),
                algorithm == null ? null : new MultipartChecksum(algorithm, type), sse.engineKey(),
                ObjectLockHeaders.requested(r));
        byte[] xml = XmlResponseWriter.document("InitiateMultipartUploadResult")
                .element("Bucket", r.bucket()).element("Key", r.key()).element("UploadId", uploadId).toBytes();
        S3Response resp = S3Response.xml(200, xml);
        if (algorithm != null) {
            resp.header("x-amz-checksum-algorithm", algorithm.name());
            resp.header("x-amz-checksum-type", type.name());
        }
        return sse.echo(resp);
    }

    private static ChecksumAlgorithm checksumAlgorithm(S3Request r) {
        String name = r.header("x-amz-checksum-algorithm");
        if (name == null) {
            return null;
        }
        return ChecksumAlgorithm.fromName(name.trim()).orElseThrow(() -> new S3Exception(S3ErrorCode.INVALID_REQUEST,
                "Checksum algorithm provided is unsupported. Please try again with any of the valid types:"
                        + " [CRC32, CRC32C, CRC64NVME, SHA1, SHA256]"));
    }

    /**
     * The checksum type: as sent, else S3's default for the algorithm (FULL_OBJECT for CRC64NVME, COMPOSITE for the
     * others). S3 offers SHA-1 and SHA-256 only as COMPOSITE and CRC64NVME only as FULL_OBJECT.
     */
    private static ChecksumType checksumType(S3Request r, ChecksumAlgorithm algorithm) {
        String name = r.header("x-amz-checksum-type");
        if (name == null) {
            return algorithm == null ? null : ChecksumType.defaultFor(algorithm);
        }
        name = name.trim();
        if (!name.equals("COMPOSITE") && !name.equals("FULL_OBJECT")) {
            throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "Value for x-amz-checksum-type header is invalid.");
        }
        if (algorithm == null) {
            throw new S3Exception(S3ErrorCode.INVALID_REQUEST,
                    "The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header.");
        }
        ChecksumType type = ChecksumType.valueOf(name);
        if (!type.allows(algorithm)) {
            throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "The " + type + " checksum type cannot be used with the "
                    + algorithm.name().toLowerCase(Locale.ROOT) + " checksum algorithm.");
        }
        return type;
    }
}
