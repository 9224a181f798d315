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
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Keys with characters an XML 1.0 document cannot carry exactly (U+0001, CR) through the AWS SDK v2 on the real
 * engine: listings without encoding-type stay well-formed, switching to URL-encoded names with EncodingType url, which
 * the SDK decodes back to the stored keys.
 */
class XmlUnsafeKeysTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    static final String BUCKET = "xml-unsafe";
    static final String CONTROL = "a\u0001b";
    static final String CARRIAGE_RETURN = "dir\r/c";
    static final String PLAIN = "plain";

    @BeforeAll
    static void objects() {
        S3Client s3 = gateway.client();
        s3.createBucket(b -> b.bucket(BUCKET));
        for (String k : new String[] {CONTROL, CARRIAGE_RETURN, PLAIN}) {
            s3.putObject(r -> r.bucket(BUCKET).key(k), RequestBody.fromString(k));
        }
    }

    @Test
    void listingsWithoutEncodingTypeReportTheStoredKeys(S3Client s3) {
        assertThat(s3.listObjectsV2(r -> r.bucket(BUCKET)).contents()).extracting(S3Object::key)
                .containsExactly(CONTROL, CARRIAGE_RETURN, PLAIN);
        assertThat(s3.listObjects(r -> r.bucket(BUCKET)).contents()).extracting(S3Object::key)
                .containsExactly(CONTROL, CARRIAGE_RETURN, PLAIN);
        assertThat(s3.listObjectVersions(r -> r.bucket(BUCKET)).versions()).extracting(ObjectVersion::key)
                .containsExactly(CONTROL, CARRIAGE_RETURN, PLAIN);
        assertThat(s3.listObjectsV2(r -> r.bucket(BUCKET).delimiter("/")).commonPrefixes())
                .extracting(CommonPrefix::prefix).containsExactly("dir\r/");
        var page = s3.listObjectsV2(r -> r.bucket(BUCKET).maxKeys(1));
        assertThat(page.contents()).extracting(S3Object::key).containsExactly(CONTROL);
        assertThat(s3.listObjectsV2(r -> r.bucket(BUCKET).continuationToken(page.nextContinuationToken()))
                .contents()).extracting(S3Object::key).containsExactly(CARRIAGE_RETURN, PLAIN);
        for (String k : new String[] {CONTROL, CARRIAGE_RETURN}) {
            assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key(k)).asUtf8String()).isEqualTo(k);
        }
    }

    @Test
    void errorDocumentNamingSuchAKeyIsWellFormedXml() throws Exception {
        try (S3Presigner p = S3Presigner.builder().endpointOverride(gateway.endpoint())
                .region(Region.US_EAST_1)
                .serviceConfiguration(S3Configuration.builder()
                        .pathStyleAccessEnabled(true).build())
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(gateway.accessKeyId(),
                                gateway.secretKey()))).build()) {
            // a GET of a missing key whose name has U+0001: the error document names it in Resource
            URI missing = p.presignGetObject(r -> r.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(g -> g.bucket(BUCKET).key("missing\u0001"))).url().toURI();
            HttpResponse<byte[]> error = HttpClient.newHttpClient().send(HttpRequest.newBuilder(missing)
                    .timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(error.statusCode()).isEqualTo(404);
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(error.body()));
            assertThat(doc.getElementsByTagName("Resource").item(0).getTextContent())
                    .isEqualTo("/" + BUCKET + "/missing%01");
        }
    }
}
