package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.acl.PublicAccess;

/**
 * GetPublicAccessBlock: the bucket's own flags; NoSuchPublicAccessBlockConfiguration (404) when it has none (the
 * tenant's account-level block, set by the operator, is not a bucket configuration and is not reported here).
 */
public final class GetPublicAccessBlockHandler implements S3ActionHandler {
    private final PublicAccess access;

    public GetPublicAccessBlockHandler(PublicAccess access) {
        this.access = access;
    }

    @Override
    public S3Response handle(S3Request r) {
        return S3Response.xml(200, access.bucketBlock(r.bucketRecord())
                .orElseThrow(() -> new S3Exception(S3ErrorCode.NO_SUCH_PUBLIC_ACCESS_BLOCK_CONFIGURATION))
                .toXml());
    }
}
