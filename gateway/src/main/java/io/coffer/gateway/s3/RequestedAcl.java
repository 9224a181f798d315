package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.acl.AccessControlList;
import io.coffer.gateway.s3.acl.AclHeaders;
import io.coffer.gateway.s3.acl.AclXml;
import java.io.IOException;

/**
 * The ACL a PutBucketAcl or PutObjectAcl sets: from {@code x-amz-acl} / {@code x-amz-grant-*} headers or from an
 * {@code AccessControlPolicy} body, not both (InvalidRequest); neither is MalformedACLError.
 */
final class RequestedAcl {
    private RequestedAcl() {
    }

    static AccessControlList of(S3Request r) throws IOException {
        String owner = r.bucketRecord().owner();
        byte[] body = r.body().readNBytes(64 * 1024 + 1);
        boolean hasBody = body.length > 0;
        if (AclHeaders.present(r)) {
            if (hasBody) {
                throw new S3Exception(S3ErrorCode.INVALID_REQUEST,
                        "Specify an ACL either by headers or by an AccessControlPolicy body, not both.");
            }
            return AclHeaders.of(r, owner);
        }
        if (!hasBody) {
            throw new S3Exception(S3ErrorCode.MALFORMED_ACL_ERROR, "The request names no ACL.");
        }
        if (body.length > 64 * 1024 || r.body().read() >= 0) {
            throw new S3Exception(S3ErrorCode.MALFORMED_ACL_ERROR, "An ACL document is at most 64 KiB.");
        }
        return AclXml.parse(body, owner);
    }
}
