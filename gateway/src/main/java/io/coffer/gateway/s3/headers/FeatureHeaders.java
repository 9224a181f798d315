package io.coffer.gateway.s3.headers;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Request;

/**
 * Request headers that ask S3 for a feature: the gateway either honours what they ask or refuses the request with
 * S3's error, and never drops them silently (a public-read ACL that answered 200 without public access would be a
 * wrong success). Object Lock headers are the handlers' ({@code ObjectLockHeaders}), except on CreateMultipartUpload.
 * What passes is what Coffer does anyway: SSE with {@code AES256} (every object is encrypted), the {@code STANDARD}
 * storage class, SSE-C's headers on PutObject, CopyObject and UploadPartCopy (both sides), GetObject,
 * HeadObject, CreateMultipartUpload and UploadPart (checked and honoured by {@code CustomerKeyHeaders}), and SSE-KMS
 * ({@code aws:kms} and its key id, context and bucket-key headers) on PutObject, CopyObject and
 * CreateMultipartUpload (honoured by {@code ServerSideEncryption}). GetObject and HeadObject refuse the
 * {@code x-amz-server-side-encryption} and KMS key id headers (400 InvalidArgument, as S3 does: a read names no
 * server-managed key). Tags ({@code x-amz-tagging}) are stored ({@code TaggingHeader}), ACLs ({@code x-amz-acl},
 * {@code x-amz-grant-*}) too ({@code AclHeaders}, checked where they are set).
 */
public final class FeatureHeaders {
    public static final String SSE = "x-amz-server-side-encryption";
    /** S3's name for SSE with keys the server manages, which is what Coffer does to every object (AES-256). */
    public static final String SSE_AES256 = "AES256";
    /** S3's name for SSE-KMS (here: a key of the gateway's keyring). */
    public static final String SSE_KMS = "aws:kms";
    /** S3's dual-layer SSE-KMS, which Coffer does not offer. */
    private static final String DSSE = "aws:kms:dsse";
    private static final String KMS_KEY_ID = "x-amz-server-side-encryption-aws-kms-key-id";
    private static final String[] CUSTOMER_KEY = {"x-amz-server-side-encryption-customer-algorithm",
        "x-amz-server-side-encryption-customer-key", "x-amz-server-side-encryption-customer-key-md5"};

    private FeatureHeaders() {
    }

    /** Throws the S3 error for the first feature header of {@code r} the gateway cannot honour. */
    public static void check(S3Request r) {
        switch (r.operation()) {
            case CREATE_BUCKET -> {
                // ACLs are AclHeaders', Object Lock is CreateBucketHandler's: nothing here to refuse
            }
            case PUT_OBJECT, COPY_OBJECT, CREATE_MULTIPART_UPLOAD -> newObject(r);
            case GET_OBJECT, HEAD_OBJECT -> {
                if (r.header(SSE) != null || r.header(KMS_KEY_ID) != null) {
                    throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "The x-amz-server-side-encryption header is"
                            + " not supported for this operation: a read names no server-managed key.");
                }
            }
            default -> {
            }
        }
    }

    /** True when a copy onto itself changes what S3 counts as a change: encryption or storage class named anew. */
    public static boolean restatesStorage(S3Request r) {
        return r.header(SSE) != null || r.header("x-amz-storage-class") != null;
    }

    /** Headers that create an object with attributes: PutObject, CopyObject, CreateMultipartUpload. */
    private static void newObject(S3Request r) {
        String sse = trimmed(r, SSE);
        if (sse != null && anyPresent(r, CUSTOMER_KEY)) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Server Side Encryption with Customer provided key is"
                    + " incompatible with the encryption method specified");
        }
        if (DSSE.equals(sse)) {
            throw notImplemented("Server-side encryption " + sse);
        }
        if (sse != null && !sse.equals(SSE_AES256) && !sse.equals(SSE_KMS)) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "The encryption method specified is not supported");
        }
        String storageClass = trimmed(r, "x-amz-storage-class");
        if (storageClass != null && !storageClass.equals("STANDARD")) {
            throw notImplemented("Storage class " + storageClass);
        }
        if (r.header("x-amz-website-redirect-location") != null) {
            throw notImplemented("Website redirects");
        }
    }

    private static boolean anyPresent(S3Request r, String[] headers) {
        for (String h : headers) {
            if (r.header(h) != null) {
                return true;
            }
        }
        return false;
    }

    private static S3Exception notImplemented(String feature) {
        return new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, feature + ": not offered by this gateway.");
    }

    private static String trimmed(S3Request r, String name) {
        String v = r.header(name);
        return v == null ? null : v.trim();
    }
}
