package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.ObjectLockHeaders;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectLock;

/**
 * GetObjectRetention ({@code ?retention}, optional {@code versionId}): the version's Mode and RetainUntilDate; a
 * version without a retention is NoSuchObjectLockConfiguration, a bucket without Object Lock InvalidRequest, as on S3.
 */
public final class GetObjectRetentionHandler implements S3ActionHandler {
    private final Coffer coffer;

    public GetObjectRetentionHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        NameRules.checkKey(r.key());
        ObjectLock lock = coffer.objectLock(r.bucketRecord(), r.key(), r.queryParam("versionId"));
        if (!lock.hasRetention()) {
            throw new S3Exception(S3ErrorCode.NO_SUCH_OBJECT_LOCK_CONFIGURATION);
        }
        return S3Response.xml(200, XmlResponseWriter.document("Retention").element("Mode", lock.mode().name())
                .element("RetainUntilDate", ObjectLockHeaders.format(lock.retainUntil())).toBytes());
    }
}
