package io.coffer.gateway.s3;

import io.coffer.gateway.s3.acl.AclXml;
import io.coffer.gateway.s3.acl.ObjectAcl;
import io.coffer.gateway.s3.acl.PublicAccess;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectInfo;

/**
 * GetBucketAcl and GetObjectAcl: the grants stored with the bucket (its {@code acl} document) or with the object's
 * current version or, with {@code versionId}, that version (in its attributes; the response names it in
 * {@code x-amz-version-id}), the owner's FULL_CONTROL where none were set. The owner is the bucket's tenant.
 */
public final class GetAclHandler implements S3ActionHandler {
    private final Coffer coffer;
    private final PublicAccess access;

    public GetAclHandler(Coffer coffer, PublicAccess access) {
        this.coffer = coffer;
        this.access = access;
    }

    @Override
    public S3Response handle(S3Request r) {
        String owner = r.bucketRecord().owner();
        if (r.key() != null) {
            String versionId = r.queryParam("versionId");
            ObjectInfo info = DeleteMarkerException.read(coffer, r.bucket(), r.key(), versionId,
                    () -> coffer.headObject(r.bucket(), r.key(), versionId));
            return ObjectHeaders.versionId(S3Response.xml(200, AclXml.render(owner, ObjectAcl.of(info.attributes()))),
                    info);
        }
        return S3Response.xml(200, AclXml.render(owner, access.bucketAcl(r.bucketRecord())));
    }
}
