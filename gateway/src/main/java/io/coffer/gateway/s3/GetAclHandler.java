package io.coffer.gateway.s3;

import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;

/**
 * GetBucketAcl and GetObjectAcl: every bucket and object is private to its owner (other canned ACLs and grants are
 * refused when written), so the policy is the owner's FULL_CONTROL, as S3 reports a private resource.
 */
public final class GetAclHandler implements S3ActionHandler {
    private final Coffer coffer;

    public GetAclHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        if (r.key() != null) {
            coffer.headObject(r.bucket(), r.key());
        }
        byte[] xml = XmlResponseWriter.document("AccessControlPolicy")
                .start("Owner").element("ID", r.owner()).element("DisplayName", r.owner()).end()
                .start("AccessControlList").start("Grant")
                .startTyped("Grantee", "CanonicalUser").element("ID", r.owner()).element("DisplayName", r.owner())
                .end()
                .element("Permission", "FULL_CONTROL")
                .end().end()
                .toBytes();
        return S3Response.xml(200, xml);
    }
}
