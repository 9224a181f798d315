package io.coffer.gateway.s3;

import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.s3.sse.CustomerKeyHeaders;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.PartInfo;

/**
 * UploadPart: streams the verified body into the engine as part {@code partNumber} of the upload, which keeps the
 * part's checksum in the upload's algorithm; under the upload's customer key (SSE-C), which the part must name.
 */
public final class UploadPartHandler implements S3ActionHandler {
    private final Coffer coffer;
    private final CustomerKeyHeaders customerKeys;

    public UploadPartHandler(Coffer coffer, CustomerKeyHeaders customerKeys) {
        this.coffer = coffer;
        this.customerKeys = customerKeys;
    }

    @Override
    public S3Response handle(S3Request r) {
        int partNumber = PartNumbers.partNumber(r);
        String uploadId = PartNumbers.uploadId(r);
        CustomerKey customerKey = customerKeys.requested(r);
        PartInfo part = coffer.uploadPart(r.bucketRecord(), r.key(), uploadId, partNumber, r.contentLength(),
                ObjectHeaders.contentMd5(r), r.body(), customerKey);
        S3Response resp = S3Response.empty(200).header("ETag", ObjectHeaders.quote(part.etag()));
        ObjectHeaders.echoChecksums(resp, r.bodyChecks().checksums());
        ObjectHeaders.echoChecksums(resp, part.checksums()); // in the upload's algorithm, also when not sent
        return CustomerKeyHeaders.echo(resp, customerKey);
    }
}
