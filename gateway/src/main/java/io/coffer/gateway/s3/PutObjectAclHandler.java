package io.coffer.gateway.s3;

import io.coffer.gateway.s3.acl.AccessControlList;
import io.coffer.gateway.s3.acl.ObjectAcl;
import io.coffer.gateway.s3.acl.PublicAccess;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectInfo;
import java.io.IOException;

/**
 * PutObjectAcl: replaces the grants ({@link RequestedAcl}) of the current version or, with {@code versionId}, of that
 * version; a public one is AccessDenied while BlockPublicAcls applies. The version keeps its id, bytes, ETag and
 * Last-Modified (the engine keeps the ACL in the version's attribute record, as it keeps tags); the response names it
 * in {@code x-amz-version-id}.
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
        String versionId = r.queryParam("versionId");
        ObjectInfo info = DeleteMarkerException.read(coffer, r.bucket(), r.key(), versionId,
                () -> coffer.reviseObjectAttributes(r.bucketRecord(), r.key(), versionId,
                        a -> ObjectAcl.with(a, acl)));
        return ObjectHeaders.versionId(S3Response.empty(200), info);
    }
}
