package io.coffer.gateway.s3.acl;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Request;
import io.coffer.gateway.s3.acl.AccessControlList.Grantee;
import io.coffer.gateway.s3.acl.AccessControlList.Permission;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectAttributes;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What a caller other than the bucket's owner may do, and which ACLs may be set. A bucket's tenant has every right
 * on it whatever its ACLs say; anyone else (an anonymous request, or another tenant's key) gets only what a public
 * grant allows, and only where Block Public Access lets the grant count:
 * <ul>
 * <li>GetObject, HeadObject: READ on the object (its ACL, of the version read);</li>
 * <li>ListObjects, ListObjectsV2: READ on the bucket;</li>
 * <li>PutObject, DeleteObject without a version id: WRITE on the bucket (public-read-write), as S3 grants it; the
 *   object belongs to the bucket's tenant like every other.</li>
 * </ul>
 * Every other action is AccessDenied. A tenant's account-level block is on unless the operator lists the tenant in
 * {@code public-access-tenants}; then the bucket's own PublicAccessBlock, if any, applies (each flag set in either
 * counts, as S3 combines account and bucket settings).
 */
public final class PublicAccess {
    public static final String BUCKET_ACL = "acl";

    private final Coffer coffer;
    private final Predicate<String> tenantMayPublish;

    /** {@code tenantMayPublish}: true for a tenant whose account-level block the operator turned off. */
    public PublicAccess(Coffer coffer, Predicate<String> tenantMayPublish) {
        this.coffer = coffer;
        this.tenantMayPublish = tenantMayPublish;
    }

    public AccessControlList bucketAcl(Bucket b) {
        return coffer.bucketConfig(b, BUCKET_ACL).map(AccessControlList::decode).orElse(AccessControlList.PRIVATE);
    }

    /** The bucket's own PublicAccessBlock document, if it has one. */
    public Optional<PublicAccessBlock> bucketBlock(Bucket b) {
        return coffer.bucketConfig(b, PublicAccessBlock.BUCKET_CONFIG).map(PublicAccessBlock::decode);
    }

    /** The flags that apply to {@code b}: all of them while its tenant's block is on, else the bucket's own. */
    public PublicAccessBlock effective(Bucket b) {
        if (!tenantMayPublish.test(b.owner())) {
            return PublicAccessBlock.ALL;
        }
        return bucketBlock(b).orElse(PublicAccessBlock.NONE);
    }

    /** BlockPublicAcls: a public ACL set on {@code b} or one of its objects is AccessDenied. */
    public void checkSettable(Bucket b, AccessControlList acl) {
        if (acl != null && acl.isPublic() && effective(b).blockPublicAcls()) {
            throw blocked();
        }
    }

    /** As {@link #checkSettable(Bucket, AccessControlList)} for a bucket {@code owner} is creating. */
    public void checkSettableOnNewBucket(String owner, AccessControlList acl) {
        if (acl != null && acl.isPublic() && !tenantMayPublish.test(owner)) {
            throw blocked();
        }
    }

    /**
     * A new object's attributes with the ACL the request's headers name (private when none: S3 never copies an ACL
     * from a copy source), checked against BlockPublicAcls.
     */
    public ObjectAttributes withRequestedAcl(S3Request r, ObjectAttributes a) {
        AccessControlList acl = AclHeaders.of(r, r.bucketRecord().owner());
        checkSettable(r.bucketRecord(), acl);
        return ObjectAcl.with(a, acl == null ? AccessControlList.PRIVATE : acl);
    }

    /**
     * Lets a request by a caller other than {@code b}'s owner ({@code r.owner()} null: anonymous) through where a
     * grant allows its action, else AccessDenied. A read of a missing key is NoSuchKey only where the caller may
     * list the bucket (AccessDenied otherwise, so that a key's existence is not told), as in S3.
     */
    public void checkGrantee(S3Request r, Bucket b) {
        List<Grantee> caller = r.owner() == null ? List.of(Grantee.ALL_USERS)
                : List.of(Grantee.ALL_USERS, Grantee.AUTHENTICATED_USERS);
        boolean allowed = !effective(b).ignorePublicAcls() && switch (r.operation()) {
            case GET_OBJECT, HEAD_OBJECT -> objectReadable(r, b, caller);
            case LIST_OBJECTS, LIST_OBJECTS_V2 -> grants(bucketAcl(b), caller, Permission.READ);
            case PUT_OBJECT -> grants(bucketAcl(b), caller, Permission.WRITE);
            case DELETE_OBJECT -> r.queryParam("versionId") == null
                    && grants(bucketAcl(b), caller, Permission.WRITE);
            default -> false;
        };
        if (!allowed) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED);
        }
    }

    private boolean objectReadable(S3Request r, Bucket b, List<Grantee> caller) {
        try {
            return grants(ObjectAcl.of(coffer.headObject(b.name(), r.key(), r.queryParam("versionId")).attributes()),
                    caller, Permission.READ);
        } catch (CofferException e) {
            if ((e.code() == ErrorCode.NO_SUCH_KEY || e.code() == ErrorCode.NO_SUCH_VERSION
                    || e.code() == ErrorCode.METHOD_NOT_ALLOWED) && grants(bucketAcl(b), caller, Permission.READ)) {
                throw e;
            }
            return false;
        }
    }

    private static boolean grants(AccessControlList acl, List<Grantee> caller, Permission p) {
        return caller.stream().anyMatch(g -> acl.allows(g, p));
    }

    private static S3Exception blocked() {
        return new S3Exception(S3ErrorCode.ACCESS_DENIED, "Access Denied: public ACLs are blocked by Block Public"
                + " Access (BlockPublicAcls) for this bucket or its tenant.");
    }
}
