package io.coffer.gateway.s3;

import io.coffer.gateway.auth.PostPolicySignature;
import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.acl.PublicAccess;
import io.coffer.gateway.s3.cors.CorsResponder;
import io.coffer.gateway.s3.headers.Conditionals;
import io.coffer.gateway.s3.headers.FeatureHeaders;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.s3.sse.BucketDataKeys;
import io.coffer.gateway.s3.sse.CustomerKeyHeaders;
import io.coffer.gateway.s3.sse.KmsKeySource;
import io.coffer.gateway.s3.sse.KmsKeyring;
import io.coffer.gateway.s3.sse.ServerSideEncryption;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectInfo;
import java.io.IOException;
import java.time.Clock;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Runs a routed request: tenant isolation first (a bucket of another tenant is AccessDenied, whatever the action),
 * then what every action shares (feature headers, the version id), then the action's handler. Also renders errors,
 * the one place an {@link S3Exception} becomes a response.
 */
public final class S3Dispatcher {
    /**
     * The actions whose response S3 marks with the object's server-side encryption: every object Coffer stores is
     * encrypted at rest with AES-256 under keys Coffer manages, which S3 reports as SSE-S3, {@code AES256}.
     */
    private static final Set<S3Operation> STORES_OR_SERVES_OBJECT_DATA = EnumSet.of(
            S3Operation.PUT_OBJECT, S3Operation.POST_OBJECT, S3Operation.COPY_OBJECT,
            S3Operation.CREATE_MULTIPART_UPLOAD, S3Operation.UPLOAD_PART, S3Operation.UPLOAD_PART_COPY,
            S3Operation.COMPLETE_MULTIPART_UPLOAD,
            S3Operation.GET_OBJECT, S3Operation.HEAD_OBJECT);

    /** The actions that act on the version {@code versionId} names; others take only the current version's id. */
    private static final Set<S3Operation> VERSIONED_ACTIONS = EnumSet.of(S3Operation.GET_OBJECT,
            S3Operation.HEAD_OBJECT, S3Operation.DELETE_OBJECT, S3Operation.GET_OBJECT_ATTRIBUTES,
            S3Operation.GET_OBJECT_RETENTION, S3Operation.PUT_OBJECT_RETENTION, S3Operation.GET_OBJECT_LEGAL_HOLD,
            S3Operation.PUT_OBJECT_LEGAL_HOLD, S3Operation.GET_OBJECT_TAGGING, S3Operation.PUT_OBJECT_TAGGING,
            S3Operation.DELETE_OBJECT_TAGGING, S3Operation.GET_OBJECT_ACL, S3Operation.PUT_OBJECT_ACL);

    private final Coffer coffer;
    private final Map<S3Operation, S3ActionHandler> handlers = new EnumMap<>(S3Operation.class);
    private final CorsResponder cors;
    private final PublicAccess access;

    /**
     * @param tenantMayPublish true for a tenant whose account-level Block Public Access the operator turned off
     *                         ({@link PublicAccess})
     */
    public S3Dispatcher(Coffer coffer, String defaultRegion, Predicate<String> tenantMayPublish,
                        PostPolicySignature postSignature, Clock clock) {
        this(coffer, defaultRegion, tenantMayPublish, postSignature, clock, false);
    }

    /** @param customerKeysAccepted whether SSE-C requests are accepted (over TLS, or allowed over http) */
    public S3Dispatcher(Coffer coffer, String defaultRegion, Predicate<String> tenantMayPublish,
                        PostPolicySignature postSignature, Clock clock, boolean customerKeysAccepted) {
        this(coffer, defaultRegion, tenantMayPublish, postSignature, clock, customerKeysAccepted, KmsKeyring.NONE);
    }

    /** @param keyring the keys SSE-KMS requests name, a keyring or a KMS ({@link KmsKeyring#NONE}: refused) */
    public S3Dispatcher(Coffer coffer, String defaultRegion, Predicate<String> tenantMayPublish,
                        PostPolicySignature postSignature, Clock clock, boolean customerKeysAccepted,
                        KmsKeySource keyring) {
        this.coffer = coffer;
        ServerSideEncryption encryption = new ServerSideEncryption(new CustomerKeyHeaders(customerKeysAccepted),
                keyring, r -> coffer.bucketConfig(r.bucketRecord(), BucketEncryptionXml.BUCKET_CONFIG)
                        .map(BucketEncryptionXml::kmsDefault).orElse(null),
                r -> new BucketDataKeys(coffer, r.bucketRecord()));
        this.access = new PublicAccess(coffer, tenantMayPublish);
        CopyObjectHandler.SourceAccess sourceAccess = (bucket, r) -> checkAccess(bucket, r.owner(),
                r.header("x-amz-source-expected-bucket-owner"));
        handlers.put(S3Operation.LIST_BUCKETS, new ListBucketsHandler(coffer));
        handlers.put(S3Operation.CREATE_BUCKET, new CreateBucketHandler(coffer, defaultRegion, access));
        handlers.put(S3Operation.HEAD_BUCKET, new HeadBucketHandler(coffer, defaultRegion));
        handlers.put(S3Operation.DELETE_BUCKET, new DeleteBucketHandler(coffer));
        handlers.put(S3Operation.GET_BUCKET_LOCATION, new GetBucketLocationHandler(coffer));
        handlers.put(S3Operation.LIST_OBJECTS, new ListObjectsHandler(coffer));
        handlers.put(S3Operation.LIST_OBJECTS_V2, new ListObjectsV2Handler(coffer));
        handlers.put(S3Operation.LIST_OBJECT_VERSIONS, new ListObjectVersionsHandler(coffer));
        PutObjectHandler put = new PutObjectHandler(coffer, access, encryption);
        handlers.put(S3Operation.PUT_OBJECT, put);
        handlers.put(S3Operation.POST_OBJECT, new PostObjectHandler(coffer, put, access, postSignature, clock));
        handlers.put(S3Operation.GET_OBJECT, new GetObjectHandler(coffer, encryption));
        handlers.put(S3Operation.HEAD_OBJECT, new HeadObjectHandler(coffer, encryption));
        handlers.put(S3Operation.DELETE_OBJECT, new DeleteObjectHandler(coffer));
        handlers.put(S3Operation.DELETE_OBJECTS, new DeleteObjectsHandler(coffer));
        handlers.put(S3Operation.COPY_OBJECT, new CopyObjectHandler(coffer, sourceAccess, access, encryption));
        handlers.put(S3Operation.CREATE_MULTIPART_UPLOAD, new CreateMultipartUploadHandler(coffer, access, encryption));
        handlers.put(S3Operation.UPLOAD_PART, new UploadPartHandler(coffer, encryption));
        handlers.put(S3Operation.UPLOAD_PART_COPY, new UploadPartCopyHandler(coffer, sourceAccess, encryption));
        handlers.put(S3Operation.COMPLETE_MULTIPART_UPLOAD, new CompleteMultipartUploadHandler(coffer));
        handlers.put(S3Operation.ABORT_MULTIPART_UPLOAD, new AbortMultipartUploadHandler(coffer));
        handlers.put(S3Operation.LIST_PARTS, new ListPartsHandler(coffer));
        handlers.put(S3Operation.LIST_MULTIPART_UPLOADS, new ListMultipartUploadsHandler(coffer));
        handlers.put(S3Operation.GET_BUCKET_VERSIONING, new GetBucketVersioningHandler(coffer));
        handlers.put(S3Operation.PUT_BUCKET_VERSIONING, new PutBucketVersioningHandler(coffer));
        handlers.put(S3Operation.GET_BUCKET_ENCRYPTION, new GetBucketEncryptionHandler(coffer));
        handlers.put(S3Operation.PUT_BUCKET_ENCRYPTION, new PutBucketEncryptionHandler(coffer, keyring));
        handlers.put(S3Operation.DELETE_BUCKET_ENCRYPTION, new DeleteBucketEncryptionHandler(coffer));
        GetAclHandler acl = new GetAclHandler(coffer, access);
        handlers.put(S3Operation.GET_BUCKET_ACL, acl);
        handlers.put(S3Operation.GET_OBJECT_ACL, acl);
        handlers.put(S3Operation.PUT_BUCKET_ACL, new PutBucketAclHandler(coffer, access));
        handlers.put(S3Operation.PUT_OBJECT_ACL, new PutObjectAclHandler(coffer, access));
        handlers.put(S3Operation.GET_PUBLIC_ACCESS_BLOCK, new GetPublicAccessBlockHandler(access));
        handlers.put(S3Operation.PUT_PUBLIC_ACCESS_BLOCK, new PutPublicAccessBlockHandler(coffer));
        handlers.put(S3Operation.DELETE_PUBLIC_ACCESS_BLOCK, new DeletePublicAccessBlockHandler(coffer));
        handlers.put(S3Operation.GET_OBJECT_TAGGING, new GetObjectTaggingHandler(coffer));
        handlers.put(S3Operation.PUT_OBJECT_TAGGING, new PutObjectTaggingHandler(coffer));
        handlers.put(S3Operation.DELETE_OBJECT_TAGGING, new DeleteObjectTaggingHandler(coffer));
        handlers.put(S3Operation.GET_OBJECT_ATTRIBUTES, new GetObjectAttributesHandler(coffer, encryption));
        UnconfiguredBucketHandler unconfigured = new UnconfiguredBucketHandler();
        UnconfiguredBucketHandler.NOT_CONFIGURED.keySet().forEach(op -> handlers.put(op, unconfigured));
        handlers.put(S3Operation.GET_BUCKET_TAGGING, new GetBucketTaggingHandler(coffer));
        handlers.put(S3Operation.PUT_BUCKET_TAGGING, new PutBucketTaggingHandler(coffer));
        handlers.put(S3Operation.DELETE_BUCKET_TAGGING, new DeleteBucketTaggingHandler(coffer));
        handlers.put(S3Operation.GET_BUCKET_CORS, new GetBucketCorsHandler(coffer));
        handlers.put(S3Operation.PUT_BUCKET_CORS, new PutBucketCorsHandler(coffer));
        handlers.put(S3Operation.DELETE_BUCKET_CORS, new DeleteBucketCorsHandler(coffer));
        handlers.put(S3Operation.GET_BUCKET_LIFECYCLE_CONFIGURATION, new GetBucketLifecycleHandler(coffer));
        handlers.put(S3Operation.PUT_BUCKET_LIFECYCLE_CONFIGURATION, new PutBucketLifecycleHandler(coffer));
        handlers.put(S3Operation.DELETE_BUCKET_LIFECYCLE, new DeleteBucketLifecycleHandler(coffer));
        handlers.put(S3Operation.GET_OBJECT_LOCK_CONFIGURATION, new GetObjectLockConfigurationHandler(coffer));
        handlers.put(S3Operation.PUT_OBJECT_LOCK_CONFIGURATION, new PutObjectLockConfigurationHandler(coffer));
        handlers.put(S3Operation.GET_OBJECT_RETENTION, new GetObjectRetentionHandler(coffer));
        handlers.put(S3Operation.PUT_OBJECT_RETENTION, new PutObjectRetentionHandler(coffer));
        handlers.put(S3Operation.GET_OBJECT_LEGAL_HOLD, new GetObjectLegalHoldHandler(coffer));
        handlers.put(S3Operation.PUT_OBJECT_LEGAL_HOLD, new PutObjectLegalHoldHandler(coffer));
        this.cors = new CorsResponder(coffer);
    }

    public S3Response dispatch(S3Request request) throws IOException {
        S3Request r = request;
        S3ActionHandler handler = handlers.get(r.operation());
        if (handler == null) {
            throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED);
        }
        if (r.operation() == S3Operation.LIST_BUCKETS || r.operation() == S3Operation.CREATE_BUCKET) {
            if (r.owner() == null) {
                throw new S3Exception(S3ErrorCode.ACCESS_DENIED);
            }
            return handle(handler, r);
        }
        try {
            if (r.operation() != S3Operation.POST_OBJECT) {
                // a form upload is authenticated by its policy, in the body: PostObjectHandler checks it
                r = r.withBucketRecord(checkRequestAccess(r));
            }
            return handle(handler, r);
        } catch (RuntimeException e) {
            throw withCors(r, e);
        }
    }

    private S3Response handle(S3ActionHandler handler, S3Request r) throws IOException {
        FeatureHeaders.check(r);
        String versionId = r.queryParam("versionId");
        if (versionId != null && !VERSIONED_ACTIONS.contains(r.operation())) {
            requireCurrentVersion(r, versionId);
        }
        S3Response resp = handler.handle(r);
        if (STORES_OR_SERVES_OBJECT_DATA.contains(r.operation())
                && !hasHeader(resp, CustomerKeyHeaders.ALGORITHM) && !hasHeader(resp, FeatureHeaders.SSE)) {
            // an SSE-C response names the customer's algorithm instead, an SSE-KMS one aws:kms, as S3's do
            resp.header(FeatureHeaders.SSE, FeatureHeaders.SSE_AES256);
        }
        if (r.header("origin") != null) {
            cors.decorate(r.bucketRecord(), r.method(), r.headers(), resp);
        }
        return resp;
    }

    /** Whether {@code resp} has header {@code name}, in any case (stored headers are answered capitalized). */
    private static boolean hasHeader(S3Response resp, String name) {
        for (String h : resp.headers().keySet()) {
            if (h.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The failure of a request with an {@code Origin} on a bucket whose CORS rules allow it, with the rules'
     * Access-Control-* headers, as S3 sends them on errors too (a browser could not read the error otherwise). The
     * method matched is the request's {@code Access-Control-Request-Method} if it sends one, else its own.
     */
    private RuntimeException withCors(S3Request r, RuntimeException failure) {
        if (r.header("origin") == null || r.bucket() == null) {
            return failure;
        }
        S3Exception e = S3Exception.from(failure);
        try {
            Bucket bucket = r.bucketRecord() != null ? r.bucketRecord() : coffer.headBucket(r.bucket());
            String requested = r.header("access-control-request-method");
            S3Response headers = S3Response.empty(e.error().status());
            cors.decorate(bucket, requested != null ? requested.trim() : r.method(), r.headers(), headers);
            headers.headers().forEach(e::responseHeader);
        } catch (RuntimeException noRules) {
            // no bucket, or rules that do not read: the error goes out as it is
            return e;
        }
        return e;
    }

    /**
     * For an action that takes no {@code versionId} but acts on the current version: a {@code versionId} must name it
     * (InvalidArgument, NoSuchVersion, MethodNotAllowed as for a read); a noncurrent version is NotImplemented. (The
     * tagging and ACL actions take one since issue 21.)
     */
    private void requireCurrentVersion(S3Request r, String versionId) {
        if (r.key() == null) {
            throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "A bucket action takes no versionId.");
        }
        ObjectInfo named = coffer.headObject(r.bucket(), r.key(), versionId);
        if (!Objects.equals(named.versionId(), coffer.headObject(r.bucket(), r.key()).versionId())) {
            throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, r.operation().actionName()
                    + " of a noncurrent version is not offered by this gateway.");
        }
    }

    /**
     * A CORS preflight ({@code OPTIONS}) on {@code bucket}, answered from its rules without authentication, as S3
     * does; {@code headers} by lower-case name. Errors are thrown as for any action.
     */
    public S3Response preflight(String bucket, Map<String, String> headers) {
        return cors.preflight(bucket, headers);
    }

    /**
     * The bucket's record, if the caller may act on it: its owner may do anything, anyone else (another tenant, an
     * anonymous request) what a public grant allows ({@link PublicAccess#checkGrantee}); AccessDenied otherwise.
     */
    private Bucket checkRequestAccess(S3Request r) {
        Bucket b = coffer.headBucket(r.bucket());
        String expectedOwner = r.header("x-amz-expected-bucket-owner");
        if (expectedOwner != null && !b.owner().equals(expectedOwner.trim())) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED);
        }
        if (!b.owner().equals(r.owner())) {
            access.checkGrantee(r.withBucketRecord(b), b);
        }
        return b;
    }

    /**
     * Tenant isolation: the bucket must be the caller's. {@code expectedOwner} is the request's
     * x-amz-expected-bucket-owner (or x-amz-source-expected-bucket-owner for a copy source): when given, the bucket's
     * owner (the tenant, shown as Owner ID in listings) must be that one, else AccessDenied as in S3.
     */
    private Bucket checkAccess(String bucket, String owner, String expectedOwner) {
        Bucket b = coffer.headBucket(bucket);
        if (!b.owner().equals(owner) || (expectedOwner != null && !b.owner().equals(expectedOwner.trim()))) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED);
        }
        return b;
    }

    /**
     * The response for an error: S3's {@code <Error>} document (none for HEAD and 304) with any extra element the
     * error names (HeadersNotSigned), and the headers some errors carry (Content-Range on 416, ETag and
     * Last-Modified on 304).
     */
    public static S3Response errorResponse(S3Exception e, String resource, String requestId, boolean head) {
        S3ErrorCode code = e.error();
        S3Response resp;
        if (head || code == S3ErrorCode.NOT_MODIFIED) {
            resp = S3Response.empty(code.status());
        } else {
            XmlResponseWriter w = XmlResponseWriter.plainDocument("Error")
                    .element("Code", code.code())
                    .element("Message", e.getMessage() == null ? code.defaultMessage() : e.getMessage());
            if (e.detailElement() != null) {
                w.element(e.detailElement(), e.detailValue());
            }
            byte[] xml = w
                    .element("Resource", resource)
                    .element("RequestId", requestId)
                    .toBytes();
            resp = S3Response.xml(code.status(), xml);
        }
        resp.errorCode(code.code());
        e.responseHeaders().forEach(resp::header);
        if (e instanceof GetObjectHandler.InvalidRangeException ir) {
            resp.header("Content-Range", "bytes */" + ir.size());
        }
        if (e instanceof DeleteMarkerException dm) {
            resp.header("x-amz-delete-marker", "true");
            resp.header("x-amz-version-id", dm.versionId());
        }
        if (e instanceof Conditionals.NotModifiedException nm) {
            resp.header("ETag", ObjectHeaders.quote(nm.info().etag()));
            resp.header("Last-Modified", ObjectHeaders.httpDate(nm.info().lastModified()));
        }
        return resp;
    }
}
