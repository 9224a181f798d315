package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.acl.PublicAccess;
import io.coffer.gateway.s3.headers.ExpirationHeader;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.s3.headers.ObjectLockHeaders;
import io.coffer.gateway.s3.headers.TaggingHeader;
import io.coffer.gateway.s3.sse.ServerSideEncryption;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ETags;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectLock;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.PutObjectRequest;

/**
 * PutObject: streams the verified body into the engine, which commits only after the stream reported EOF (every
 * signature, hash and checksum check passed). Supports x-amz-meta-*, the stored content headers, Content-MD5,
 * x-amz-checksum-*, x-amz-tagging, x-amz-acl / x-amz-grant-*, If-None-Match: * and If-Match, and the Object Lock
 * headers (with Content-MD5 or a checksum, as S3 requires), SSE-C's headers (the object stored under the
 * customer's key) and SSE-KMS's (under a keyring key, also as the bucket's default), {@link ServerSideEncryption}.
 */
public final class PutObjectHandler implements S3ActionHandler {
    private final Coffer coffer;
    private final PublicAccess access;
    private final ServerSideEncryption encryption;

    public PutObjectHandler(Coffer coffer, PublicAccess access, ServerSideEncryption encryption) {
        this.coffer = coffer;
        this.access = access;
        this.encryption = encryption;
    }

    @Override
    public S3Response handle(S3Request r) {
        NameRules.checkKey(r.key());
        ServerSideEncryption.Write sse = encryption.forWrite(r);
        PutObjectRequest put = new PutObjectRequest(r.bucket(), r.key(), r.contentLength(),
                sse.apply(access.withRequestedAcl(r, ObjectHeaders.attributesFrom(r).withTags(TaggingHeader.tags(r)))),
                ObjectHeaders.contentMd5(r), precondition(r),
                () -> r.bodyChecks().checksums(), r.bucketRecord(), sse.engineKey());
        ObjectLock lock = ObjectLockHeaders.requested(r);
        if (!lock.equals(ObjectLock.NONE)) {
            ObjectLockHeaders.requireIntegrityHeader(r, put.contentMd5());
        }
        ObjectInfo info = coffer.putObject(put, r.body(), lock);
        S3Response resp = ObjectHeaders.versionId(S3Response.empty(200).header("ETag",
                ObjectHeaders.quote(info.etag())), info);
        ObjectHeaders.echoChecksums(resp, r.bodyChecks().checksums());
        ExpirationHeader.write(resp, coffer, r.bucketRecord(), info);
        return sse.echo(resp);
    }

    /** If-None-Match: * and If-Match for conditional writes; any other If-None-Match value is NotImplemented. */
    static Precondition precondition(S3Request r) {
        String ifNoneMatch = r.header("if-none-match");
        String ifMatch = r.header("if-match");
        if (ifNoneMatch != null && !ifNoneMatch.trim().equals("*")) {
            throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "If-None-Match on writes only supports *.");
        }
        if (ifNoneMatch == null && ifMatch == null) {
            return Precondition.NONE;
        }
        return new Precondition(ifMatch == null ? null : ETags.unquote(ifMatch), ifNoneMatch != null);
    }
}
