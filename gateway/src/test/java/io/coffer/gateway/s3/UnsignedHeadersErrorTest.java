package io.coffer.gateway.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.w3c.dom.Document;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * A presigned PUT (it signs only host) sent with x-amz-* headers its signer did not sign: S3's 403 AccessDenied
 * error document names them in HeadersNotSigned, and nothing is stored.
 */
class UnsignedHeadersErrorTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    static final String BUCKET = "unsigned";

    @BeforeAll
    static void bucket() {
        gateway.client().createBucket(b -> b.bucket(BUCKET));
    }

    @Test
    void errorDocumentNamesTheHeadersNotSigned() throws Exception {
        try (S3Presigner p = S3Presigner.builder().endpointOverride(gateway.endpoint()).region(Region.US_EAST_1)
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        gateway.accessKeyId(), gateway.secretKey()))).build()) {
            URI put = p.presignPutObject(r -> r.signatureDuration(Duration.ofMinutes(5))
                    .putObjectRequest(o -> o.bucket(BUCKET).key("k"))).url().toURI();
            HttpResponse<byte[]> refused = HttpClient.newHttpClient().send(HttpRequest.newBuilder(put)
                    .timeout(Duration.ofSeconds(20))
                    .header("x-amz-meta-injected", "1")
                    .header("x-amz-copy-source", "/" + BUCKET + "/other")
                    .PUT(HttpRequest.BodyPublishers.ofString("body")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(refused.statusCode()).isEqualTo(403);
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(refused.body()));
            assertThat(doc.getElementsByTagName("Code").item(0).getTextContent()).isEqualTo("AccessDenied");
            assertThat(doc.getElementsByTagName("Message").item(0).getTextContent())
                    .isEqualTo("There were headers present in the request which were not signed");
            assertThat(doc.getElementsByTagName("HeadersNotSigned").item(0).getTextContent())
                    .isEqualTo("x-amz-copy-source, x-amz-meta-injected");
        }
        assertThat(gateway.client().listObjectsV2(r -> r.bucket(BUCKET)).contents()).isEmpty();
    }
}
