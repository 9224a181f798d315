package io.coffer.gateway.s3;

import io.coffer.gateway.s3.cors.CorsConfiguration;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.sdk.Coffer;
import java.io.IOException;

/**
 * PutBucketCors: validates the {@code CORSConfiguration} (MalformedXML, InvalidRequest; {@link CorsConfiguration})
 * and stores it with the bucket, replacing any earlier one. Content-MD5 is checked here, x-amz-checksum-* by the
 * body stream.
 */
public final class PutBucketCorsHandler implements S3ActionHandler {
    private final Coffer coffer;

    public PutBucketCorsHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        byte[] body = CorsConfiguration.readBody(r.body());
        ObjectHeaders.checkMd5(ObjectHeaders.contentMd5(r), body);
        CorsConfiguration config = CorsConfiguration.parse(body);
        coffer.putBucketConfig(r.bucketRecord(), CorsConfiguration.BUCKET_CONFIG, config.toXml());
        return S3Response.empty(200);
    }
}
