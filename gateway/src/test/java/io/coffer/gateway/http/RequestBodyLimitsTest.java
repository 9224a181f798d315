package io.coffer.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.InMemoryCofferForProtocolTests;
import io.coffer.gateway.auth.SigV4;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.PartInfo;
import io.coffer.sdk.checksum.ChecksumAlgorithm;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a request body may be, over real sockets: the 5 GiB upload limit answered before {@code 100 Continue},
 * aws-chunked sizes and trailers read strictly, the largest CompleteMultipartUpload document, keys that are not
 * UTF-8. A refused request stores nothing.
 */
class RequestBodyLimitsTest {
    private static final long FIVE_GIB = 5L * 1024 * 1024 * 1024;

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> new InMemoryCofferForProtocolTests(1));

    static InMemoryCofferForProtocolTests engine() {
        return (InMemoryCofferForProtocolTests) gateway.engine();
    }

    @BeforeAll
    static void bucket() {
        gateway.client().createBucket(b -> b.bucket("limits"));
    }

    private RawClient client() throws IOException {
        return new RawClient(gateway.port(), gateway.accessKeyId(), gateway.secretKey());
    }

    private String host() {
        return "127.0.0.1:" + gateway.port();
    }

    /** Everything the server sends until it closes the connection. */
    private static String readUntilClosed(RawClient c) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = c.socket.getInputStream();
        byte[] buf = new byte[4096];
        try {
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                out.write(buf, 0, n);
            }
        } catch (SocketException e) {
            // reset after the response: what was read is the answer
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void putAboveFiveGibIsEntityTooLargeInsteadOf100Continue() throws IOException {
        try (RawClient c = client()) {
            String head = RawClient.signedHead("PUT", "/limits/huge", "", Map.of("expect", "100-continue",
                    "content-length", Long.toString(FIVE_GIB + 1)), SigV4.UNSIGNED_PAYLOAD, host(),
                    gateway.accessKeyId(), gateway.secretKey(), Instant.now());
            c.writeRaw((head + "\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = readUntilClosed(c);
            assertThat(answer).startsWith("HTTP/1.1 400 ").doesNotContain("100 Continue")
                    .contains("<Code>EntityTooLarge</Code>");
        }
        assertThat(engine().data("limits", "huge")).isNull();
    }

    @Test
    void uploadPartWhoseDecodedLengthIsAboveFiveGibIsEntityTooLargeInsteadOf100Continue() throws IOException {
        String uploadId = engine().createMultipartUpload("limits", "huge-part", ObjectAttributes.EMPTY);
        int before = engine().commits.get();
        try (RawClient c = client()) {
            String head = RawClient.signedHead("PUT", "/limits/huge-part", "partNumber=1&uploadId=" + uploadId,
                    Map.of("expect", "100-continue", "content-encoding", "aws-chunked",
                            "x-amz-decoded-content-length", Long.toString(FIVE_GIB + 1),
                            "content-length", Long.toString(FIVE_GIB + 1000),
                            "x-amz-trailer", "x-amz-checksum-crc32"), "STREAMING-UNSIGNED-PAYLOAD-TRAILER", host(),
                    gateway.accessKeyId(), gateway.secretKey(), Instant.now());
            c.writeRaw((head + "\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = readUntilClosed(c);
            assertThat(answer).startsWith("HTTP/1.1 400 ").doesNotContain("100 Continue")
                    .contains("<Code>EntityTooLarge</Code>");
        }
        assertThat(engine().commits.get()).isEqualTo(before);
    }

    @Test
    void putOfExactlyFiveGibDeclaredIsAnswered100Continue() throws IOException {
        try (RawClient c = client()) {
            String head = RawClient.signedHead("PUT", "/limits/five", "", Map.of("expect", "100-continue",
                    "content-length", Long.toString(FIVE_GIB)), SigV4.UNSIGNED_PAYLOAD, host(),
                    gateway.accessKeyId(), gateway.secretKey(), Instant.now());
            c.writeRaw((head + "\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] first = c.socket.getInputStream().readNBytes("HTTP/1.1 100".length());
            assertThat(new String(first, StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 100");
        }
        assertThat(engine().data("limits", "five")).isNull();
    }

    private RawClient.Response chunkedPut(RawClient c, String key, Map<String, String> headers, String body)
            throws IOException {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put("content-encoding", "aws-chunked");
        return c.send("PUT", "/limits/" + key, "", h, body.getBytes(StandardCharsets.US_ASCII),
                "STREAMING-UNSIGNED-PAYLOAD-TRAILER");
    }

    @Test
    void chunkSizeWithASignIsInvalidArgumentAndNothingStored() throws IOException {
        try (RawClient c = client()) {
            RawClient.Response plus = chunkedPut(c, "plus", Map.of("x-amz-decoded-content-length", "5"),
                    "+5\r\nhello\r\n0\r\n\r\n");
            assertThat(plus.status()).isEqualTo(400);
            assertThat(plus.body()).contains("<Code>InvalidArgument</Code>");
        }
        try (RawClient c = client()) {
            RawClient.Response minusZero = chunkedPut(c, "minus-zero", Map.of("x-amz-decoded-content-length", "0"),
                    "-0\r\n\r\n");
            assertThat(minusZero.status()).isEqualTo(400);
            assertThat(minusZero.body()).contains("<Code>InvalidArgument</Code>");
        }
        assertThat(engine().data("limits", "plus")).isNull();
        assertThat(engine().data("limits", "minus-zero")).isNull();
    }

    @Test
    void checksumDeclaredInXAmzTrailerButMissingFromTheTrailerIsMalformedTrailerError() throws IOException {
        try (RawClient c = client()) {
            RawClient.Response r = chunkedPut(c, "no-trailer", Map.of("x-amz-decoded-content-length", "5",
                    "x-amz-trailer", "x-amz-checksum-crc32"), "5\r\nhello\r\n0\r\n\r\n");
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.body()).contains("<Code>MalformedTrailerError</Code>");

            String crc = ChecksumAlgorithm.CRC32.of("hello".getBytes(StandardCharsets.US_ASCII));
            RawClient.Response ok = chunkedPut(c, "with-trailer", Map.of("x-amz-decoded-content-length", "5",
                    "x-amz-trailer", "x-amz-checksum-crc32"),
                    "5\r\nhello\r\n0\r\nx-amz-checksum-crc32:" + crc + "\r\n\r\n");
            assertThat(ok.status()).isEqualTo(200);
            assertThat(ok.header("x-amz-checksum-crc32")).isEqualTo(crc);
        }
        assertThat(engine().data("limits", "no-trailer")).isNull();
        assertThat(engine().data("limits", "with-trailer")).asString(StandardCharsets.US_ASCII).isEqualTo("hello");
    }

    @Test
    void xAmzTrailerOnAPayloadWithoutTrailersIsMalformedTrailerError() throws IOException {
        try (RawClient c = client()) {
            RawClient.Response r = c.send("PUT", "/limits/plain-trailer", "",
                    Map.of("x-amz-trailer", "x-amz-checksum-crc32"), "hello".getBytes(StandardCharsets.US_ASCII),
                    SigV4.UNSIGNED_PAYLOAD);
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.body()).contains("<Code>MalformedTrailerError</Code>");
        }
        assertThat(engine().data("limits", "plain-trailer")).isNull();
    }

    @Test
    void completeMultipartUploadOfTenThousandPartsWithEveryChecksumIsAccepted() throws IOException {
        String key = "ten-thousand";
        String uploadId = engine().createMultipartUpload("limits", key, ObjectAttributes.EMPTY);
        byte[] one = {'x'};
        Map<ChecksumAlgorithm, String> sums = new EnumMap<>(ChecksumAlgorithm.class);
        for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
            sums.put(a, a.of(one));
        }
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">\n");
        for (int n = 1; n <= 10_000; n++) {
            PartInfo part = engine().uploadPart("limits", key, uploadId, n, 1, new ByteArrayInputStream(one));
            xml.append("    <Part>\n        <ETag>&quot;").append(part.etag()).append("&quot;</ETag>\n");
            for (Map.Entry<ChecksumAlgorithm, String> s : sums.entrySet()) {
                String element = "Checksum" + s.getKey().name();
                xml.append("        <").append(element).append('>').append(s.getValue()).append("</")
                        .append(element).append(">\n");
            }
            xml.append("        <PartNumber>").append(n).append("</PartNumber>\n    </Part>\n");
        }
        xml.append("</CompleteMultipartUpload>\n");
        try (RawClient c = client()) {
            RawClient.Response r = c.send("POST", "/limits/" + key, "uploadId=" + uploadId, Map.of(),
                    xml.toString().getBytes(StandardCharsets.UTF_8));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            assertThat(r.body()).contains("<CompleteMultipartUploadResult").contains("-10000\"</ETag>");
        }
        assertThat(engine().data("limits", key)).hasSize(10_000);
    }

    @Test
    void keyThatIsNotUtf8IsInvalidUri() throws IOException {
        int before = engine().commits.get();
        for (String path : new String[] {"/limits/%FF", "/limits/a%C3%28b", "/limits/%ED%A0%80"}) {
            try (RawClient c = client()) {
                c.writeRaw(("PUT " + path + " HTTP/1.1\r\nhost: " + host() + "\r\ncontent-length: 1\r\n\r\nx")
                        .getBytes(StandardCharsets.US_ASCII));
                RawClient.Response r = c.read(false);
                assertThat(r.status()).as(path).isEqualTo(400);
                assertThat(r.body()).as(path).contains("<Code>InvalidURI</Code>");
            }
        }
        try (RawClient c = client()) {
            byte[] raw = ("PUT /limits/a\u00ffb HTTP/1.1\r\nhost: " + host() + "\r\ncontent-length: 1\r\n\r\nx")
                    .getBytes(StandardCharsets.ISO_8859_1);
            c.writeRaw(raw);
            RawClient.Response r = c.read(false);
            assertThat(r.status()).as("a raw 0xFF byte in the path").isEqualTo(400);
            assertThat(r.body()).contains("<Code>InvalidURI</Code>");
        }
        assertThat(engine().commits.get()).isEqualTo(before);
    }
}
