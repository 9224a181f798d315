package io.coffer.gateway.s3;

import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.s3.sse.ServerSideEncryption;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.PartInfo;

/**
 * UploadPart: streams the verified body into the engine as part {@code partNumber} of the upload, which keeps the
 * part's checksum in the upload's algorithm; under the upload's customer key (SSE-C), which the part must name, or
 * its keyring key (SSE-KMS), which the part need not name.
 */
public final class UploadPartHandler implements S3ActionHandler {
    private final Coffer coffer;
    private final ServerSideEncryption encryption;

    public UploadPartHandler(Coffer coffer, ServerSideEncryption encryption) {
        this.coffer = coffer;
        this.encryption = encryption;
    }

    @Override
    public S3Response handle(S3Request r) {
        int partNumber = PartNumbers.partNumber(r);
        String uploadId = PartNumbers.uploadId(r);
        ServerSideEncryption.Seen keys = encryption.seen(encryption.forRead(r));
        PartInfo part = coffer.uploadPartKeyed(r.bucketRecord(), r.key(), uploadId, partNumber, r.contentLength(),
                ObjectHeaders.contentMd5(r), r.body(), keys);
        S3Response resp = S3Response.empty(200).header("ETag", ObjectHeaders.quote(part.etag()));
        ObjectHeaders.echoChecksums(resp, r.bodyChecks().checksums());
        ObjectHeaders.echoChecksums(resp, part.checksums()); // in the upload's algorithm, also when not sent
        return keys.echo(resp);
    }
}
