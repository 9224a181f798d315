package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectLockConfiguration;

/**
 * GetObjectLockConfiguration: {@code ObjectLockEnabled} Enabled and the default retention if there is one; a bucket
 * without Object Lock is ObjectLockConfigurationNotFoundError, as on S3.
 */
public final class GetObjectLockConfigurationHandler implements S3ActionHandler {
    private final Coffer coffer;

    public GetObjectLockConfigurationHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        ObjectLockConfiguration c = coffer.objectLockConfiguration(r.bucketRecord())
                .orElseThrow(() -> new S3Exception(S3ErrorCode.OBJECT_LOCK_CONFIGURATION_NOT_FOUND_ERROR));
        XmlResponseWriter w = XmlResponseWriter.document("ObjectLockConfiguration").element("ObjectLockEnabled",
                "Enabled");
        if (c.defaultMode() != null) {
            w.start("Rule").start("DefaultRetention").element("Mode", c.defaultMode().name());
            if (c.defaultDays() > 0) {
                w.element("Days", c.defaultDays());
            } else {
                w.element("Years", c.defaultYears());
            }
            w.end().end();
        }
        return S3Response.xml(200, w.toBytes());
    }
}
