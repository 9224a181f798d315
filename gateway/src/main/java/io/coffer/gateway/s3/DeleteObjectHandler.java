package io.coffer.gateway.s3;

import io.coffer.sdk.Coffer;

/** DeleteObject: 204 whether or not the key existed, as S3 answers. */
public final class DeleteObjectHandler implements S3ActionHandler {
    private final Coffer coffer;

    public DeleteObjectHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        NameRules.checkKey(r.key());
        coffer.deleteObject(r.bucketRecord(), r.key());
        return S3Response.empty(204);
    }
}
