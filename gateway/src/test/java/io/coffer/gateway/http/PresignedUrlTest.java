package io.coffer.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.InMemoryCofferForProtocolTests;
import io.coffer.gateway.testing.CofferGatewayExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/** Presigned GET and PUT URLs made by the SDK's presigner, used through java.net.http.HttpClient. */
class PresignedUrlTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> new InMemoryCofferForProtocolTests());

    private S3Presigner presigner() {
        return S3Presigner.builder().endpointOverride(gateway.endpoint()).region(Region.US_EAST_1)
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        gateway.accessKeyId(), gateway.secretKey()))).build();
    }

    @Test
    void presignedPutThenPresignedGetRoundTrip() throws Exception {
        gateway.client().createBucket(b -> b.bucket("presigned"));
        HttpClient http = HttpClient.newHttpClient();
        try (S3Presigner p = presigner()) {
            URI put = p.presignPutObject(r -> r.signatureDuration(Duration.ofMinutes(5))
                    .putObjectRequest(o -> o.bucket("presigned").key("a b.txt"))).url().toURI();
            HttpResponse<String> putResp = http.send(HttpRequest.newBuilder(put)
                    .PUT(HttpRequest.BodyPublishers.ofString("via presigned url")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(putResp.statusCode()).isEqualTo(200);

            URI get = p.presignGetObject(r -> r.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(o -> o.bucket("presigned").key("a b.txt"))).url().toURI();
            HttpResponse<String> getResp = http.send(HttpRequest.newBuilder(get).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(getResp.statusCode()).isEqualTo(200);
            assertThat(getResp.body()).isEqualTo("via presigned url");

            String tampered = get.toString().replace("a%20b.txt", "other.txt");
            HttpResponse<String> bad = http.send(HttpRequest.newBuilder(URI.create(tampered)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(bad.statusCode()).isEqualTo(403);
            assertThat(bad.body()).contains("<Code>SignatureDoesNotMatch</Code>");
        }
    }

    @Test
    void expiredPresignedUrlIsAccessDeniedRequestHasExpired() throws Exception {
        gateway.client().createBucket(b -> b.bucket("expiring"));
        try (S3Presigner p = presigner()) {
            URI get = p.presignGetObject(r -> r.signatureDuration(Duration.ofSeconds(1))
                    .getObjectRequest(o -> o.bucket("expiring").key("k"))).url().toURI();
            Thread.sleep(2100);
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(get).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(403);
            assertThat(r.body()).contains("<Code>AccessDenied</Code>").contains("Request has expired");
        }
    }

    @Test
    void presignedPutHolderCannotAddUnsignedAmzHeaders() throws Exception {
        gateway.client().createBucket(b -> b.bucket("unsigned"));
        gateway.client().putObject(o -> o.bucket("unsigned").key("secret"),
                RequestBody.fromString("the signer's other object"));
        HttpClient http = HttpClient.newHttpClient();
        try (S3Presigner p = presigner()) {
            URI put = p.presignPutObject(r -> r.signatureDuration(Duration.ofMinutes(5))
                    .putObjectRequest(o -> o.bucket("unsigned").key("target"))).url().toURI();
            for (String[] header : new String[][] {{"x-amz-copy-source", "/unsigned/secret"},
                    {"x-amz-meta-injected", "1"}, {"X-Amz-Tagging", "a=b"}}) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(put).header(header[0], header[1])
                        .PUT(HttpRequest.BodyPublishers.ofString("")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(header[0]).isEqualTo(403);
                assertThat(r.body()).contains("<Code>AccessDenied</Code>")
                        .contains("There were headers present in the request which were not signed");
            }
            assertThat(gateway.client().listObjectsV2(l -> l.bucket("unsigned")).contents())
                    .extracting(o -> o.key()).as("nothing written").containsExactly("secret");

            HttpResponse<String> plain = http.send(HttpRequest.newBuilder(put)
                    .PUT(HttpRequest.BodyPublishers.ofString("as signed")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(plain.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void presignedExpiryOutOfRangeIsAccessDenied() throws Exception {
        gateway.client().createBucket(b -> b.bucket("out-of-range"));
        try (S3Presigner p = presigner()) {
            String url = p.presignGetObject(r -> r.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(o -> o.bucket("out-of-range").key("k"))).url().toString();
            for (String expires : new String[] {"604801", "-1000", "0"}) {
                // the signature no longer matches either, but the range is checked first, as S3 does
                URI changed = URI.create(url.replaceFirst("X-Amz-Expires=\\d+", "X-Amz-Expires=" + expires));
                HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(changed).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(expires).isEqualTo(403);
                assertThat(r.body()).as(expires).contains("<Code>AccessDenied</Code>");
            }
        }
    }
}
