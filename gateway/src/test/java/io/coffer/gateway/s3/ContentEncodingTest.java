package io.coffer.gateway.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Content-Encoding through the AWS SDK v2 on the real engine: stored and returned as the client sent it; only the
 * transfer coding aws-chunked is taken out (the SDK adds it to its default trailer-checksum uploads).
 */
class ContentEncodingTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    static final String BUCKET = "encodings";

    @BeforeAll
    static void bucket() {
        gateway.client().createBucket(b -> b.bucket(BUCKET));
    }

    private static String storedEncoding(S3Client s3, String sent) {
        s3.putObject(r -> r.bucket(BUCKET).key("k").contentEncoding(sent), RequestBody.fromString("body"));
        return s3.headObject(r -> r.bucket(BUCKET).key("k")).contentEncoding();
    }

    @Test
    void awsChunkedUploadKeepsTheOtherCodingsAsSent(S3Client s3) {
        assertThat(storedEncoding(s3, "gzip")).isEqualTo("gzip");
        assertThat(storedEncoding(s3, "deflate, gzip")).isEqualTo("deflate, gzip");
        assertThat(storedEncoding(s3, "gzip, aws-chunked")).isEqualTo("gzip");
        assertThat(storedEncoding(s3, "aws-chunked, gzip")).isEqualTo("gzip");
        assertThat(storedEncoding(s3, "aws-chunked")).isNull();
        assertThat(storedEncoding(s3, "aws-chunked, aws-chunked")).isNull();
    }

    @Test
    void plainUploadStoresTheHeaderExactlyAsSent(S3Client s3) throws Exception {
        // a presigned PUT sent by the JDK's client: a plain body, no aws-chunked
        try (S3Presigner p = S3Presigner.builder().endpointOverride(gateway.endpoint()).region(Region.US_EAST_1)
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        gateway.accessKeyId(), gateway.secretKey()))).build()) {
            for (String sent : new String[] {"br,gzip", "deflate, gzip"}) {
                URI put = p.presignPutObject(r -> r.signatureDuration(Duration.ofMinutes(5))
                        .putObjectRequest(o -> o.bucket(BUCKET).key("plain").contentEncoding(sent))).url().toURI();
                HttpResponse<String> stored = HttpClient.newHttpClient().send(HttpRequest.newBuilder(put)
                        .timeout(Duration.ofSeconds(20)).header("content-encoding", sent)
                        .PUT(HttpRequest.BodyPublishers.ofString("body")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(stored.statusCode()).isEqualTo(200);
                assertThat(s3.headObject(r -> r.bucket(BUCKET).key("plain")).contentEncoding()).isEqualTo(sent);
            }
        }
    }
}
