package io.coffer.gateway.s3;

import io.coffer.gateway.s3.headers.FeatureHeaders;
import io.coffer.gateway.xml.XmlResponseWriter;

/**
 * GetBucketEncryption: every bucket encrypts every object with AES-256 under keys Coffer manages, which S3 reports as
 * a default rule of SSE-S3 ({@code AES256}). PutBucketEncryption stays NotImplemented: there is nothing to choose.
 */
public final class GetBucketEncryptionHandler implements S3ActionHandler {
    @Override
    public S3Response handle(S3Request r) {
        byte[] xml = XmlResponseWriter.document("ServerSideEncryptionConfiguration")
                .start("Rule").start("ApplyServerSideEncryptionByDefault")
                .element("SSEAlgorithm", FeatureHeaders.SSE_AES256).end()
                .element("BucketKeyEnabled", false).end()
                .toBytes();
        return S3Response.xml(200, xml);
    }
}
