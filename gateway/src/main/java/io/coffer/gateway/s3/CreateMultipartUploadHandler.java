package io.coffer.gateway.s3;

import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;

/** CreateMultipartUpload: stores the object attributes with the upload and returns its id. */
public final class CreateMultipartUploadHandler implements S3ActionHandler {
    private final Coffer coffer;

    public CreateMultipartUploadHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        NameRules.checkKey(r.key());
        String uploadId = coffer.createMultipartUpload(r.bucket(), r.key(), ObjectHeaders.attributesFrom(r));
        byte[] xml = XmlResponseWriter.document("InitiateMultipartUploadResult")
                .element("Bucket", r.bucket()).element("Key", r.key()).element("UploadId", uploadId).toBytes();
        return S3Response.xml(200, xml);
    }
}
