package io.coffer.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.InMemoryCofferForProtocolTests;
import io.coffer.gateway.auth.AwsChunkedInputStream;
import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.auth.SigV4;
import io.coffer.gateway.testing.CofferGatewayExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Bad input of every kind over real sockets: the exact S3 error and status, the connection kept where S3 keeps it,
 * and nothing stored (the engine's commit counter does not move).
 */
class HostileInputTest {
    static final Credential OTHER = new Credential("OTHERTENANTKEY", "other-secret", "tenant-b");

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> new InMemoryCofferForProtocolTests()).withCredential(OTHER)
            .withBaseDomain("s3.localhost");

    static InMemoryCofferForProtocolTests engine() {
        return (InMemoryCofferForProtocolTests) gateway.engine();
    }

    @BeforeAll
    static void buckets() {
        gateway.client().createBucket(b -> b.bucket("hostile"));
        gateway.client().putObject(r -> r.bucket("hostile").key("ten"), RequestBody.fromString("0123456789"));
        try (var other = gateway.newClient(OTHER.accessKeyId(), OTHER.secretKey())) {
            other.createBucket(b -> b.bucket("other-tenant"));
        }
    }

    private RawClient client() throws IOException {
        return new RawClient(gateway.port(), gateway.accessKeyId(), gateway.secretKey());
    }

    private static void assertError(RawClient.Response r, int status, String code) {
        assertThat(r.status()).isEqualTo(status);
        assertThat(r.body()).contains("<Code>" + code + "</Code>").contains("<RequestId>" + r.header("x-amz-request-id"));
        assertThat(r.header("x-amz-id-2")).isNotBlank();
        assertThat(r.header("date")).isNotBlank();
        assertThat(r.header("server")).isEqualTo("Coffer");
    }

    @Test
    void oversizedHeaderSectionIs400AndCloses() throws IOException {
        try (RawClient c = client()) {
            c.writeRaw(("GET /hostile HTTP/1.1\r\nhost: x\r\nx-big: " + "a".repeat(20_000) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            RawClient.Response r = c.read(false);
            assertError(r, 400, "RequestHeaderSectionTooLarge");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void oversizedRequestLineIs400InvalidUri() throws IOException {
        try (RawClient c = client()) {
            c.writeRaw(("GET /hostile/" + "k".repeat(9000) + " HTTP/1.1\r\nhost: x\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            assertError(c.read(false), 400, "InvalidURI");
        }
    }

    @Test
    void badSignatureIs403AndTheConnectionStaysUsable() throws IOException {
        int before = engine().commits.get();
        try (RawClient bad = new RawClient(gateway.port(), gateway.accessKeyId(), "wrong-secret")) {
            assertError(bad.send("PUT", "/hostile/forged", "", Map.of(), "x".getBytes()), 403,
                    "SignatureDoesNotMatch");
            assertThat(bad.send("GET", "/hostile/ten", "", Map.of(), new byte[0]).status()).isEqualTo(403);
        }
        assertThat(engine().commits.get()).isEqualTo(before);
    }

    @Test
    void wrongPayloadHashIsXAmzContentSha256MismatchNothingStoredKeepAlive() throws IOException {
        int before = engine().commits.get();
        try (RawClient c = client()) {
            RawClient.Response r = c.send("PUT", "/hostile/sha", "", Map.of(), "payload".getBytes(),
                    SigV4.sha256Hex("other payload"));
            assertError(r, 400, "XAmzContentSHA256Mismatch");
            assertThat(c.send("GET", "/hostile/ten", "", Map.of(), new byte[0]).body()).isEqualTo("0123456789");
        }
        assertThat(engine().commits.get()).isEqualTo(before);
        assertThat(engine().data("hostile", "sha")).isNull();
    }

    @Test
    void wrongContentMd5IsBadDigestAndWrongChecksumIsBadDigest() throws IOException {
        int before = engine().commits.get();
        try (RawClient c = client()) {
            assertError(c.send("PUT", "/hostile/md5", "", Map.of("content-md5", "AAAAAAAAAAAAAAAAAAAAAA=="),
                    "payload".getBytes()), 400, "BadDigest");
            assertError(c.send("PUT", "/hostile/crc", "", Map.of("x-amz-checksum-crc32", "AAAAAA=="),
                    "payload".getBytes()), 400, "BadDigest");
        }
        assertThat(engine().commits.get()).isEqualTo(before);
    }

    @Test
    void forgedAwsChunkedSignatureIsRejectedAndNothingStored() throws IOException {
        int before = engine().commits.get();
        Instant now = Instant.now();
        String amzDate = RawClient.AMZ.format(now);
        byte[] data = "chunk data".getBytes(StandardCharsets.US_ASCII);
        String forged = "0".repeat(64);
        String body = Integer.toHexString(data.length) + ";chunk-signature=" + forged + "\r\nchunk data\r\n"
                + "0;chunk-signature=" + forged + "\r\n\r\n";
        try (RawClient c = client()) {
            String head = RawClient.signedHead("PUT", "/hostile/chunked", "", Map.of("content-encoding", "aws-chunked",
                    "x-amz-decoded-content-length", Integer.toString(data.length), "content-length",
                    Integer.toString(body.length())), SigV4.STREAMING_SIGNED, "127.0.0.1:" + gateway.port(),
                    gateway.accessKeyId(), gateway.secretKey(), now);
            c.writeRaw((head + "\r\n" + body).getBytes(StandardCharsets.US_ASCII));
            assertError(c.read(false), 403, "SignatureDoesNotMatch");
        }
        assertThat(engine().commits.get()).isEqualTo(before);
        assertThat(amzDate).hasSize(16);
        assertThat(AwsChunkedInputStream.MAX_CHUNK).isEqualTo(16 * 1024 * 1024);
    }

    @Test
    void malformedDeleteXmlIsMalformedXml() throws IOException {
        byte[] xml = "<Delete><Object><Key>a</Key></Object>".getBytes(StandardCharsets.UTF_8);
        try (RawClient c = client()) {
            String md5 = Base64.getEncoder().encodeToString(md5(xml));
            assertError(c.send("POST", "/hostile", "delete", Map.of("content-md5", md5), xml), 400, "MalformedXML");
            byte[] xxe = ("<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                    + "<Delete><Object><Key>&x;</Key></Object></Delete>").getBytes(StandardCharsets.UTF_8);
            assertError(c.send("POST", "/hostile", "delete", Map.of("content-md5",
                    Base64.getEncoder().encodeToString(md5(xxe))), xxe), 400, "MalformedXML");
            assertError(c.send("POST", "/hostile", "delete", Map.of(), "<Delete/>".getBytes()), 400,
                    "InvalidRequest");
        }
    }

    @Test
    void keyOver1024BytesIsKeyTooLongError() throws IOException {
        try (RawClient c = client()) {
            assertError(c.send("PUT", "/hostile/" + "k".repeat(1025), "", Map.of(), "x".getBytes()), 400,
                    "KeyTooLongError");
        }
    }

    @Test
    void invalidBucketNamesAreInvalidBucketName() throws IOException {
        try (RawClient c = client()) {
            for (String name : new String[] {"UPPER", "ab", "a..b", "192.168.1.1", "-dash", "xn--punycode",
                "amzn-s3-demo-x", "x.mrap", "zone--x-s3", "t--table-s3"}) {
                assertError(c.send("PUT", "/" + name, "", Map.of(), new byte[0]), 400, "InvalidBucketName");
            }
        }
    }

    @Test
    void rangePastTheEndIs416WithContentRange() throws IOException {
        try (RawClient c = client()) {
            RawClient.Response r = c.send("GET", "/hostile/ten", "", Map.of("range", "bytes=10-20"), new byte[0]);
            assertError(r, 416, "InvalidRange");
            assertThat(r.header("content-range")).isEqualTo("bytes */10");
        }
    }

    @Test
    void anotherTenantsBucketIsAccessDeniedAndNotListed() throws IOException {
        try (RawClient c = client()) {
            assertError(c.send("GET", "/other-tenant", "list-type=2", Map.of(), new byte[0]), 403, "AccessDenied");
            assertError(c.send("PUT", "/other-tenant/k", "", Map.of(), "x".getBytes()), 403, "AccessDenied");
            assertError(c.send("PUT", "/other-tenant", "", Map.of(), new byte[0]), 409, "BucketAlreadyExists");
            RawClient.Response list = c.send("GET", "/", "", Map.of(), new byte[0]);
            assertThat(list.body()).contains("<Name>hostile</Name>").doesNotContain("other-tenant");
        }
    }

    @Test
    void unsupportedSubresourcesAreRefusedAndChangeNothing() throws IOException {
        int before = engine().commits.get();
        try (RawClient c = client()) {
            for (String q : new String[] {"acl", "versioning", "policy", "website", "object-lock", "replication"}) {
                if (q.equals("acl")) {
                    // PutBucketAcl is offered: naming no ACL at all is MalformedACLError
                    assertError(c.send("PUT", "/hostile", q, Map.of(), new byte[0]), 400, "MalformedACLError");
                } else if (q.equals("object-lock")) {
                    assertError(c.send("PUT", "/hostile", q, Map.of(), new byte[0]), 400, "MalformedXML");
                } else if (!q.equals("versioning")) {
                    assertError(c.send("PUT", "/hostile", q, Map.of(), new byte[0]), 501, "NotImplemented");
                }
                assertError(c.send("DELETE", "/hostile", q, Map.of(), new byte[0]), 501, "NotImplemented");
            }
            // a versioning body that is empty, not a VersioningConfiguration or names another status is MalformedXML,
            // MFA delete NotImplemented
            for (String body : new String[] {"", "<Tagging><TagSet/></Tagging>",
                "<VersioningConfiguration><Status>On</Status></VersioningConfiguration>",
                "<VersioningConfiguration><Status>Enabled</Status><Extra/></VersioningConfiguration>"}) {
                assertError(c.send("PUT", "/hostile", "versioning", Map.of(), body.getBytes(StandardCharsets.UTF_8)),
                        400, "MalformedXML");
            }
            assertError(c.send("PUT", "/hostile", "versioning", Map.of(), ("<VersioningConfiguration><Status>Enabled"
                    + "</Status><MfaDelete>Enabled</MfaDelete></VersioningConfiguration>").getBytes(
                    StandardCharsets.UTF_8)), 501, "NotImplemented");
            // lifecycle rules are stored; a body that is no LifecycleConfiguration is MalformedXML
            assertError(c.send("PUT", "/hostile", "lifecycle", Map.of(), new byte[0]), 400, "MalformedXML");
            for (String q : new String[] {"retention", "legal-hold"}) {
                assertError(c.send("PUT", "/hostile/ten", q, Map.of(), new byte[0]), 400, "MalformedXML");
                assertError(c.send("DELETE", "/hostile/ten", q, Map.of(), new byte[0]), 501, "NotImplemented");
            }
            assertError(c.send("PUT", "/hostile/ten", "acl", Map.of(), new byte[0]), 400, "MalformedACLError");
            // a tag set breaking S3's rules is InvalidTag, a body that is no Tagging document 400 MalformedXML
            byte[] twice = "<Tagging><TagSet><Tag><Key>a</Key><Value>b</Value></Tag><Tag><Key>a</Key></Tag></TagSet>"
                    .concat("</Tagging>").getBytes(StandardCharsets.UTF_8);
            assertError(c.send("PUT", "/hostile/ten", "tagging", Map.of(), twice), 400, "InvalidTag");
            byte[] noKey = "<Tagging><TagSet><Tag><Value>b</Value></Tag></TagSet></Tagging>"
                    .getBytes(StandardCharsets.UTF_8);
            assertError(c.send("PUT", "/hostile/ten", "tagging", Map.of(), noKey), 400, "MalformedXML");
            assertError(c.send("PUT", "/hostile/ten", "tagging", Map.of(), new byte[0]), 400, "MalformedXML");
            assertError(c.send("PUT", "/hostile/ten", "tagging", Map.of(), "<Tagging/>".getBytes(
                    StandardCharsets.UTF_8)), 400, "MalformedXML");
            // an empty tag set whose Content-MD5 is another body's
            assertError(c.send("PUT", "/hostile/ten", "tagging", Map.of("content-md5",
                    Base64.getEncoder().encodeToString(md5("other".getBytes(StandardCharsets.UTF_8)))),
                    "<Tagging><TagSet/></Tagging>".getBytes(StandardCharsets.UTF_8)), 400, "BadDigest");
            // a bucket encryption body that is empty, not XML or another document is MalformedXML; on an object 501
            for (String body : new String[] {"", "AES256", "<Tagging><TagSet/></Tagging>",
                "<ServerSideEncryptionConfiguration><Rule><ApplyServerSideEncryptionByDefault><SSEAlgorithm>AES256"
                        + "</SSEAlgorithm></ApplyServerSideEncryptionByDefault><Extra/></Rule>"
                        + "</ServerSideEncryptionConfiguration>"}) {
                assertError(c.send("PUT", "/hostile", "encryption", Map.of(), body.getBytes(StandardCharsets.UTF_8)),
                        400, "MalformedXML");
            }
            assertError(c.send("PUT", "/hostile/ten", "encryption", Map.of(), new byte[0]), 501, "NotImplemented");
            assertError(c.send("DELETE", "/hostile/ten", "encryption", Map.of(), new byte[0]), 501, "NotImplemented");
            assertError(c.send("GET", "/hostile/ten", "versions", Map.of(), new byte[0]), 501, "NotImplemented");
            assertError(c.send("PUT", "/hostile/ten", "versionId=null", Map.of(), new byte[0]), 501,
                    "NotImplemented");
            assertError(c.send("GET", "/hostile", "attributes", Map.of(), new byte[0]), 501, "NotImplemented");
            assertError(c.send("PUT", "/hostile/ten", "attributes", Map.of(), new byte[0]), 501, "NotImplemented");
            assertError(c.send("GET", "/hostile/ten", "attributes", Map.of(), new byte[0]), 400, "InvalidArgument");
            assertError(c.send("GET", "/hostile/ten", "attributes", Map.of("x-amz-object-attributes", "ETag,Owner"),
                    new byte[0]), 400, "InvalidArgument");
            assertError(c.send("GET", "/hostile", "notification", Map.of(), new byte[0]), 501, "NotImplemented");
            assertError(c.send("GET", "/hostile/ten", "versioning", Map.of(), new byte[0]), 501, "NotImplemented");
            assertError(c.send("GET", "/hostile/ten", "tagging&versionId=3", Map.of(), new byte[0]), 400,
                    "InvalidArgument");
            assertError(c.send("GET", "/hostile/ten", "tagging&versionId=" + "0".repeat(32), Map.of(), new byte[0]),
                    404, "NoSuchVersion");
            assertError(c.send("GET", "/hostile", "acl&policy", Map.of(), new byte[0]), 501, "NotImplemented");
            assertThat(c.send("GET", "/hostile/ten", "", Map.of(), new byte[0]).body()).isEqualTo("0123456789");
        }
        assertThat(engine().commits.get()).isEqualTo(before);
    }

    @Test
    void foreignContinuationTokenIsInvalidArgument() throws IOException {
        try (RawClient c = client()) {
            RawClient.Response r = c.send("GET", "/hostile", "list-type=2&continuation-token=not-a-token%21", Map.of(),
                    new byte[0]);
            assertError(r, 400, "InvalidArgument");
            assertThat(r.body()).contains("The continuation token provided is incorrect");
        }
    }

    @Test
    void emptyContinuationTokenListsFromTheStartAndIsEchoed() throws IOException {
        try (RawClient c = client()) {
            RawClient.Response r = c.send("GET", "/hostile", "list-type=2&continuation-token=", Map.of(),
                    new byte[0]);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).contains("<ContinuationToken></ContinuationToken>")
                    .contains("<IsTruncated>false</IsTruncated>").contains("<Key>ten</Key>")
                    .doesNotContain("NextContinuationToken");
        }
    }

    @Test
    void headErrorsHaveNoBody() throws IOException {
        try (RawClient c = client()) {
            RawClient.Response r = c.send("HEAD", "/hostile/missing", "", Map.of(), new byte[0]);
            assertThat(r.status()).isEqualTo(404);
            assertThat(r.body()).isEmpty();
            assertThat(c.send("GET", "/hostile/ten", "", Map.of(), new byte[0]).status()).isEqualTo(200);
        }
    }

    @Test
    void expectContinueWithBadSignatureGetsTheErrorInsteadOf100() throws IOException {
        try (RawClient bad = new RawClient(gateway.port(), gateway.accessKeyId(), "wrong")) {
            String head = RawClient.signedHead("PUT", "/hostile/expect", "", Map.of("expect", "100-continue",
                    "content-length", "5"), SigV4.UNSIGNED_PAYLOAD, "127.0.0.1:" + gateway.port(),
                    gateway.accessKeyId(), "wrong", Instant.now());
            bad.writeRaw((head + "\r\n").getBytes(StandardCharsets.US_ASCII));
            RawClient.Response r = bad.read(false);
            assertError(r, 403, "SignatureDoesNotMatch");
            assertThat(r.header("connection")).isEqualTo("close");
        }
        assertThat(engine().data("hostile", "expect")).isNull();
    }

    @Test
    void unsignedRequestIsAccessDenied() throws IOException {
        try (RawClient c = client()) {
            c.writeRaw("GET /hostile/ten HTTP/1.1\r\nhost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertError(c.read(false), 403, "AccessDenied");
        }
    }

    @Test
    void virtualHostedStyleAddressesTheBucketByHost() throws IOException {
        try (RawClient c = client()) {
            String host = "hostile.s3.localhost:" + gateway.port();
            String head = RawClient.signedHead("GET", "/ten", "", Map.of(), SigV4.EMPTY_SHA256, host,
                    gateway.accessKeyId(), gateway.secretKey(), Instant.now());
            c.writeRaw((head + "\r\n").getBytes(StandardCharsets.US_ASCII));
            RawClient.Response r = c.read(false);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("0123456789");
        }
    }

    private static byte[] md5(byte[] b) {
        try {
            return MessageDigest.getInstance("MD5").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
