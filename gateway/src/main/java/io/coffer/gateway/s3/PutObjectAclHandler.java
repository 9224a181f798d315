package io.coffer.gateway.s3;

import io.coffer.gateway.s3.acl.AccessControlList;
import io.coffer.gateway.s3.acl.ObjectAcl;
import io.coffer.gateway.s3.acl.PublicAccess;
import io.coffer.sdk.Coffer;
import java.io.IOException;

/**
 * PutObjectAcl: replaces the current version's grants ({@link RequestedAcl}); a public one is AccessDenied while
 * BlockPublicAcls applies. The engine seals the manifest again with the ACL among its attributes, as it does for
 * tags: bytes, ETag and Last-Modified stay.
 */
public final class PutObjectAclHandler implements S3ActionHandler {
    private final Coffer coffer;
    private final PublicAccess access;

    public PutObjectAclHandler(Coffer coffer, PublicAccess access) {
        this.coffer = coffer;
        this.access = access;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        NameRules.checkKey(r.key());
        AccessControlList acl = RequestedAcl.of(r);
        access.checkSettable(r.bucketRecord(), acl);
        coffer.reviseObjectAttributes(r.bucketRecord(), r.key(), a -> ObjectAcl.with(a, acl));
        return S3Response.empty(200);
    }
}
