package io.coffer.gateway.s3;

import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.Coffer;

/**
 * GetBucketVersioning: {@code Status} Enabled or Suspended; a bucket that was never versioned answers an empty
 * configuration, no Status element, as S3 does.
 */
public final class GetBucketVersioningHandler implements S3ActionHandler {
    private final Coffer coffer;

    public GetBucketVersioningHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        BucketVersioning state = coffer.bucketVersioning(r.bucketRecord());
        XmlResponseWriter w = XmlResponseWriter.document("VersioningConfiguration");
        if (state != BucketVersioning.UNVERSIONED) {
            w.element("Status", state.status());
        }
        return S3Response.xml(200, w.toBytes());
    }
}
