package io.coffer.gateway.s3;

import io.coffer.gateway.xml.XmlResponseWriter;

/**
 * GetBucketVersioning: versioning is never enabled on a Coffer bucket (PutBucketVersioning is NotImplemented), and S3
 * answers that state with an empty configuration, no Status element.
 */
public final class GetBucketVersioningHandler implements S3ActionHandler {
    @Override
    public S3Response handle(S3Request r) {
        return S3Response.xml(200, XmlResponseWriter.document("VersioningConfiguration").toBytes());
    }
}
