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
import io.coffer.gateway.s3.sse.CustomerKeyHeaders;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectInfo;

/**
 * CopyObject: by manifest in the engine (no data is read or written). x-amz-metadata-directive COPY (default) or
 * REPLACE, x-amz-copy-source-if-* conditions, If-Match / If-None-Match on the destination. With SSE-C on either side
 * (x-amz-copy-source-server-side-encryption-customer-* for the source), the data is read and written anew.
 */
public final class CopyObjectHandler implements S3ActionHandler {
    private final Coffer coffer;
    private final SourceAccess sourceAccess;
    private final PublicAccess access;
    private final CustomerKeyHeaders customerKeys;
    private final CustomerKeyCopy customerKeyCopy;

    public CopyObjectHandler(Coffer coffer, SourceAccess sourceAccess, PublicAccess access,
                             CustomerKeyHeaders customerKeys) {
        this.coffer = coffer;
        this.sourceAccess = sourceAccess;
        this.access = access;
        this.customerKeys = customerKeys;
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
        CustomerKey sourceKey = customerKeys.copySource(r);
        CustomerKey destinationKey = customerKeys.requested(r);
        if (sourceKey != null || destinationKey != null) {
            return customerKeyCopy(r, source, directive, sourceKey, destinationKey);
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
        if (attributes == null) {
            // S3 never copies an ACL: the copy gets the request's (private by default), so the source's attributes
            // are named here with the ACL replaced; the copy is bound to the ETag read (a source replaced in between
            // is PreconditionFailed rather than another object's attributes on these bytes)
            ObjectInfo src = coffer.headObject(source.bucket(), source.key(), source.versionId());
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

    /** A copy with a customer key on either side, read and written anew ({@link CustomerKeyCopy}). */
    private S3Response customerKeyCopy(S3Request r, CopySource source, String directive, CustomerKey sourceKey,
                                       CustomerKey destinationKey) {
        ObjectAttributes replaced = "REPLACE".equals(directive) ? ObjectHeaders.attributesFrom(r) : null;
        ObjectInfo info = customerKeyCopy.copy(source, sourceKey, r.bucketRecord(), r.key(),
                from -> access.withRequestedAcl(r, replaced == null ? from : replaced), TaggingHeader.copyTags(r),
                PutObjectHandler.precondition(r), ObjectLockHeaders.requested(r), destinationKey);
        return CustomerKeyHeaders.echo(result(r, info, source), destinationKey);
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
