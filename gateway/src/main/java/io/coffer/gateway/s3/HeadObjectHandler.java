package io.coffer.gateway.s3;

import io.coffer.gateway.s3.sse.ServerSideEncryption;
import io.coffer.sdk.Coffer;

/** HeadObject: GetObject's headers without a body; errors are answered without a body too (by the server). */
public final class HeadObjectHandler implements S3ActionHandler {
    private final GetObjectHandler get;

    public HeadObjectHandler(Coffer coffer, ServerSideEncryption encryption) {
        this.get = new GetObjectHandler(coffer, encryption, true);
    }

    @Override
    public S3Response handle(S3Request r) {
        return get.handle(r);
    }
}
