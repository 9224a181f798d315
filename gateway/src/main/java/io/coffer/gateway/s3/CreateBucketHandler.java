package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.acl.AccessControlList;
import io.coffer.gateway.s3.acl.AclHeaders;
import io.coffer.gateway.s3.acl.PublicAccess;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * CreateBucket, with an optional CreateBucketConfiguration body naming the LocationConstraint. Re-creating a bucket
 * one already owns is 200 in us-east-1 (S3's legacy behaviour there, which scripts rely on; nothing changes) and
 * BucketAlreadyOwnedByYou (409) in any other region. An ACL named by x-amz-acl or x-amz-grant-* (a public one only
 * where the tenant's Block Public Access is off) is stored with a bucket this request created.
 * {@code x-amz-bucket-object-lock-enabled: true} creates it with Object Lock, which also enables its versioning for good.
 */
public final class CreateBucketHandler implements S3ActionHandler {
    private static final XmlRequestReader XML = new XmlRequestReader(64 * 1024, 64);
    private static final String US_EAST_1 = "us-east-1";
    private final Coffer coffer;
    private final String defaultRegion;
    private final PublicAccess access;

    public CreateBucketHandler(Coffer coffer, String defaultRegion, PublicAccess access) {
        this.coffer = coffer;
        this.defaultRegion = defaultRegion;
        this.access = access;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        NameRules.check(r.bucket());
        String region = defaultRegion;
        byte[] body = r.body().readNBytes(64 * 1024 + 1);
        if (r.body().read() >= 0 || body.length > 64 * 1024) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        if (body.length > 0 && !new String(body, StandardCharsets.UTF_8).isBlank()) {
            XmlElement config = XML.parse(body, "CreateBucketConfiguration");
            String constraint = config.childText("LocationConstraint");
            if (constraint != null && !constraint.isBlank()) {
                region = constraint.trim();
            }
        }
        AccessControlList acl = AclHeaders.of(r, r.owner());
        access.checkSettableOnNewBucket(r.owner(), acl);
        try {
            Bucket created = coffer.createBucket(r.bucket(), r.owner(), region, objectLock(r));
            if (acl != null && !acl.equals(AccessControlList.PRIVATE)) {
                coffer.putBucketConfig(created, PublicAccess.BUCKET_ACL, acl.encodeBytes());
            }
        } catch (CofferException e) {
            if (e.code() != ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU || !region.equals(US_EAST_1)
                    || !coffer.headBucket(r.bucket()).region().equals(US_EAST_1)) {
                throw e;
            }
        }
        return S3Response.empty(200).header("Location", "/" + r.bucket());
    }

    /** {@code x-amz-bucket-object-lock-enabled}: true creates the bucket with Object Lock (and versioning) enabled. */
    private static boolean objectLock(S3Request r) {
        String v = r.header("x-amz-bucket-object-lock-enabled");
        if (v == null || v.trim().equalsIgnoreCase("false")) {
            return false;
        }
        if (!v.trim().equalsIgnoreCase("true")) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "x-amz-bucket-object-lock-enabled must be true or "
                    + "false");
        }
        return true;
    }
}
