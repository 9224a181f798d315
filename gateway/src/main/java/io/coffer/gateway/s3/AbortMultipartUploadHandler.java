package io.coffer.gateway.s3;

import io.coffer.sdk.Coffer;

/** AbortMultipartUpload: 204; NoSuchUpload when the upload is unknown. */
public final class AbortMultipartUploadHandler implements S3ActionHandler {
    private final Coffer coffer;

    public AbortMultipartUploadHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        coffer.abortMultipartUpload(r.bucketRecord(), r.key(), PartNumbers.uploadId(r));
        return S3Response.empty(204);
    }
}
