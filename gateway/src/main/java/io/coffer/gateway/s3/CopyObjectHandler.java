package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.acl.PublicAccess;
import io.coffer.gateway.s3.headers.CopySourceHeader;
import io.coffer.gateway.s3.headers.FeatureHeaders;
import io.coffer.gateway.s3.headers.ExpirationHeader;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.s3.headers.ObjectLockHeaders;
import io.coffer.gateway.s3.headers.TaggingHeader;
import io.coffer.gateway.s3.sse.CustomerKeyCopy;
import io.coffer.gateway.s3.sse.ServerSideEncryption;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectInfo;

/**
 * CopyObject: by manifest in the engine (no data is read or written). x-amz-metadata-directive COPY (default) or
 * REPLACE, x-amz-copy-source-if-* conditions, If-Match / If-None-Match on the destination. With SSE-C on either side
 * (x-amz-copy-source-server-side-encryption-customer-* for the source), or SSE-KMS on either side (a source under a
 * keyring key; a destination with aws:kms, or without encryption headers in a bucket whose default is aws:kms), the
 * data is read and written anew.
 */
public final class CopyObjectHandler implements S3ActionHandler {
    private final Coffer coffer;
    private final SourceAccess sourceAccess;
    private final PublicAccess access;
    private final ServerSideEncryption encryption;
    private final CustomerKeyCopy customerKeyCopy;

    public CopyObjectHandler(Coffer coffer, SourceAccess sourceAccess, PublicAccess access,
                             ServerSideEncryption encryption) {
        this.coffer = coffer;
        this.sourceAccess = sourceAccess;
        this.access = access;
        this.encryption = encryption;
        this.customerKeyCopy = new CustomerKeyCopy(coffer);
    }

    @Override
    public S3Response handle(S3Request r) {
        NameRules.checkKey(r.key());
        CopySource source = CopySourceHeader.parse(r);
        sourceAccess.check(source.bucket(), r);
        String directive = r.header("x-amz-metadata-directive");
        ObjectAttributes attributes = null;
        if (directive != null && !directive.equals("COPY") && !directive.equals("REPLACE")) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Unknown metadata directive.");
        }
        ServerSideEncryption.Write destination = encryption.forWrite(r);
        if (encryption.customerKeys().copySource(r) != null || destination.customerKey() != null) {
            return keyedCopy(r, source, directive, destination);
        }
        // a copy onto itself must change something; one of an older version (how clients restore it) need not
        if ("REPLACE".equals(directive)) {
            attributes = ObjectHeaders.attributesFrom(r);
        } else if (source.bucket().equals(r.bucket()) && source.key().equals(r.key()) && source.versionId() == null
                && !FeatureHeaders.restatesStorage(r)) {
            throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "This copy request is illegal because it is trying to"
                    + " copy an object to itself without changing the object's metadata, storage class, website"
                    + " redirect location or encryption attributes.");
        }
        if (destination.kms() != null) {
            return keyedCopy(r, source, directive, destination);
        }
        ObjectInfo src = coffer.headObject(source.bucket(), source.key(), source.versionId());
        if (CustomerKey.protects(src.attributes())) {
            // under a keyring key (or a customer key, which the keyed copy then asks for)
            return keyedCopy(r, source, directive, destination);
        }
        if (attributes == null) {
            // S3 never copies an ACL: the copy gets the request's (private by default), so the source's attributes
            // are named here with the ACL replaced; the copy is bound to the ETag read (a source replaced in between
            // is PreconditionFailed rather than another object's attributes on these bytes)
            attributes = src.attributes();
            if (source.ifMatch() == null) {
                source = new CopySource(source.bucket(), source.key(), src.etag(), source.ifNoneMatch(),
                        source.ifModifiedSince(), source.ifUnmodifiedSince(), source.versionId());
            }
        }
        attributes = access.withRequestedAcl(r, attributes);
        ObjectInfo info = coffer.copyObject(source, r.bucketRecord(), r.key(), attributes, TaggingHeader.copyTags(r),
                PutObjectHandler.precondition(r), ObjectLockHeaders.requested(r));
        return result(r, info, source);
    }

    /** A copy with a customer or keyring key on either side, read and written anew ({@link CustomerKeyCopy}). */
    private S3Response keyedCopy(S3Request r, CopySource source, String directive,
                                 ServerSideEncryption.Write destination) {
        ObjectAttributes replaced = "REPLACE".equals(directive) ? ObjectHeaders.attributesFrom(r) : null;
        ObjectInfo info = customerKeyCopy.copy(source, encryption.forCopySource(r), r.bucketRecord(), r.key(),
                from -> destination.apply(access.withRequestedAcl(r, replaced == null ? from : replaced)),
                TaggingHeader.copyTags(r), PutObjectHandler.precondition(r), ObjectLockHeaders.requested(r),
                destination.engineKey());
        return destination.echo(result(r, info, source));
    }

    private S3Response result(S3Request r, ObjectInfo info, CopySource source) {
        byte[] xml = XmlResponseWriter.document("CopyObjectResult")
                .element("LastModified", info.lastModified())
                .element("ETag", ObjectHeaders.quote(info.etag()))
                .toBytes();
        S3Response resp = ObjectHeaders.versionId(S3Response.xml(200, xml), info);
        if (source.versionId() != null) {
            resp.header("x-amz-copy-source-version-id", source.versionId());
        }
        ExpirationHeader.write(resp, coffer, r.bucketRecord(), info);
        return resp;
    }

    /** Checks that the caller of {@code r} may read the source bucket (tenant isolation applies to copy sources too). */
    @FunctionalInterface
    public interface SourceAccess {
        void check(String bucket, S3Request r);
    }
}
