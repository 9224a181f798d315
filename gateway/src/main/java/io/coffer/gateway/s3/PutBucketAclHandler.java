package io.coffer.gateway.s3;

import io.coffer.gateway.s3.acl.AccessControlList;
import io.coffer.gateway.s3.acl.PublicAccess;
import io.coffer.sdk.Coffer;
import java.io.IOException;

/**
 * PutBucketAcl: replaces the bucket's grants ({@link RequestedAcl}); a public one is AccessDenied while
 * BlockPublicAcls applies. Kept as the bucket record's {@code acl} document (sealed, restored by reindex); the
 * private ACL removes it.
 */
public final class PutBucketAclHandler implements S3ActionHandler {
    private final Coffer coffer;
    private final PublicAccess access;

    public PutBucketAclHandler(Coffer coffer, PublicAccess access) {
        this.coffer = coffer;
        this.access = access;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        AccessControlList acl = RequestedAcl.of(r);
        access.checkSettable(r.bucketRecord(), acl);
        coffer.putBucketConfig(r.bucketRecord(), PublicAccess.BUCKET_ACL,
                acl.equals(AccessControlList.PRIVATE) ? null : acl.encodeBytes());
        return S3Response.empty(200);
    }
}
