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
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Query parameters as SDKs send them in presigned URLs: those that name no subresource (the JS and Go SDKs'
 * {@code x-id}, {@code x-amz-checksum-mode}, response-* overrides, {@code versionId=null}, {@code partNumber}, unknown
 * ones) leave the action as it is; a subresource Coffer does not offer is still 501 NotImplemented.
 */
class QueryParametersTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    static final String BUCKET = "query";
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void object() {
        gateway.client().createBucket(b -> b.bucket(BUCKET));
        gateway.client().putObject(r -> r.bucket(BUCKET).key("k"), RequestBody.fromString("presigned bytes"));
    }

    private static S3Presigner presigner() {
        return S3Presigner.builder().endpointOverride(gateway.endpoint()).region(Region.US_EAST_1)
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        gateway.accessKeyId(), gateway.secretKey()))).build();
    }

    /** A presigned GET of key k whose signed query also carries {@code extra} (name, value pairs). */
    private static HttpResponse<String> presignedGet(String... extra) throws Exception {
        AwsRequestOverrideConfiguration.Builder o = AwsRequestOverrideConfiguration.builder();
        for (int i = 0; i < extra.length; i += 2) {
            o.putRawQueryParameter(extra[i], extra[i + 1]);
        }
        try (S3Presigner p = presigner()) {
            URI url = p.presignGetObject(r -> r.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(g -> g.bucket(BUCKET).key("k").overrideConfiguration(o.build()))).url().toURI();
            assertThat(url.getRawQuery()).contains("X-Amz-Signature=");
            for (int i = 0; i < extra.length; i += 2) {
                assertThat(url.getRawQuery()).contains(extra[i] + "=");
            }
            return HTTP.send(HttpRequest.newBuilder(url).GET().build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void presignedGetWithSdkMarkersAndChecksumModeIsServed() throws Exception {
        HttpResponse<String> r = presignedGet("x-id", "GetObject", "x-amz-checksum-mode", "ENABLED");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("presigned bytes");
        assertThat(r.headers().firstValue("x-amz-checksum-crc32")).isPresent();
    }

    @Test
    void presignedGetWithParametersS3AcceptsOnGetObjectIsServed() throws Exception {
        HttpResponse<String> r = presignedGet("x-id", "GetObject", "response-content-type", "text/plain",
                "response-content-disposition", "attachment", "versionId", "null", "x-amz-expected-bucket-owner",
                gateway.client().listBuckets().owner().id(), "some-future-parameter", "1");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("presigned bytes");
        assertThat(r.headers().firstValue("content-type")).hasValue("text/plain");
        assertThat(r.headers().firstValue("content-disposition")).hasValue("attachment");

        HttpResponse<String> part = presignedGet("x-id", "GetObject", "partNumber", "1");
        assertThat(part.statusCode()).as(part.body()).isEqualTo(206);
        assertThat(part.body()).isEqualTo("presigned bytes");
    }

    @Test
    void subresourcesCofferDoesNotOfferAreStillNotImplemented() throws Exception {
        for (String sub : new String[] {"website", "cors", "lifecycle", "policy", "replication"}) {
            try (S3Presigner p = presigner()) {
                URI url = p.presignPutObject(r -> r.signatureDuration(Duration.ofMinutes(5))
                        .putObjectRequest(g -> g.bucket(BUCKET).key("k").overrideConfiguration(o -> o
                                .putRawQueryParameter(sub, "")))).url().toURI();
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(url)
                        .PUT(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(sub).isEqualTo(501);
                assertThat(r.body()).contains("<Code>NotImplemented</Code>");
            }
        }
        for (String sub : S3Router.UNSUPPORTED) {
            HttpResponse<String> r = presignedGet(sub, "");
            assertThat(r.statusCode()).as(sub).isEqualTo(501);
            assertThat(r.body()).contains("<Code>NotImplemented</Code>");
        }
        assertThat(gateway.client().getObjectAsBytes(g -> g.bucket(BUCKET).key("k")).asUtf8String())
                .isEqualTo("presigned bytes");
    }
}
