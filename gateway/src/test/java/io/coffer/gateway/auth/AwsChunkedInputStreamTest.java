package io.coffer.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.sdk.checksum.ChecksumAlgorithm;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * aws-chunked decoding: AWS's documented signed example ("Transferring Payload in Multiple Chunks": 64 KiB + 1 KiB of
 * 'a'), the trailer variants, truncation and forged chunk signatures.
 */
class AwsChunkedInputStreamTest {
    static final String SEED = "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9";
    static final String[] CHUNK_SIGNATURES = {
        "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648",
        "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497",
        "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9"};

    static AwsChunkedInputStream.ChunkSigner exampleSigner() {
        byte[] key = SigV4.signingKey(SigV4VectorsTest.SECRET, "20130524", "us-east-1", "s3");
        return new AwsChunkedInputStream.ChunkSigner(key, "20130524T000000Z",
                SigV4.scope("20130524", "us-east-1", "s3"), SEED);
    }

    static byte[] documentedBody(String[] signatures) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] a64 = new byte[65536];
        Arrays.fill(a64, (byte) 'a');
        byte[] a1 = new byte[1024];
        Arrays.fill(a1, (byte) 'a');
        out.writeBytes(("10000;chunk-signature=" + signatures[0] + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(a64);
        out.writeBytes(("\r\n400;chunk-signature=" + signatures[1] + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(a1);
        out.writeBytes(("\r\n0;chunk-signature=" + signatures[2] + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    @Test
    void documentedSignedExampleDecodesTo66560Bytes() throws IOException {
        byte[] decoded = new AwsChunkedInputStream(new ByteArrayInputStream(documentedBody(CHUNK_SIGNATURES)),
                exampleSigner(), null).readAllBytes();
        assertThat(decoded).hasSize(66560);
        assertThat(new String(decoded, StandardCharsets.US_ASCII)).matches("a+");
    }

    @Test
    void signerReproducesDocumentedChunkSignatures() {
        AwsChunkedInputStream.ChunkSigner s = exampleSigner();
        byte[] a64 = new byte[65536];
        Arrays.fill(a64, (byte) 'a');
        byte[] a1 = new byte[1024];
        Arrays.fill(a1, (byte) 'a');
        assertThat(s.sign(SigV4.hex(SigV4.sha256().digest(a64)))).isEqualTo(CHUNK_SIGNATURES[0]);
        assertThat(s.sign(SigV4.hex(SigV4.sha256().digest(a1)))).isEqualTo(CHUNK_SIGNATURES[1]);
        assertThat(s.sign(SigV4.EMPTY_SHA256)).isEqualTo(CHUNK_SIGNATURES[2]);
    }

    @Test
    void forgedChunkSignatureIsSignatureDoesNotMatch() {
        String[] forged = CHUNK_SIGNATURES.clone();
        forged[1] = "1" + forged[1].substring(1);
        AwsChunkedInputStream in = new AwsChunkedInputStream(new ByteArrayInputStream(documentedBody(forged)),
                exampleSigner(), null);
        assertFails(in, S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    }

    @Test
    void truncatedBodyIsIncompleteBody() {
        byte[] body = documentedBody(CHUNK_SIGNATURES);
        AwsChunkedInputStream in = new AwsChunkedInputStream(new ByteArrayInputStream(Arrays.copyOf(body,
                body.length - 200)), exampleSigner(), null);
        assertFails(in, S3ErrorCode.INCOMPLETE_BODY);
    }

    @Test
    void missingFinalChunkIsIncompleteBodyEvenWithAllDataPresent() {
        byte[] body = documentedBody(CHUNK_SIGNATURES);
        String text = new String(body, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("0;chunk-signature=" + CHUNK_SIGNATURES[2]);
        AwsChunkedInputStream in = new AwsChunkedInputStream(new ByteArrayInputStream(Arrays.copyOf(body, end)),
                exampleSigner(), null);
        assertFails(in, S3ErrorCode.INCOMPLETE_BODY);
    }

    @Test
    void unsignedPayloadWithTrailerYieldsTrailingChecksum() throws IOException {
        String crc = ChecksumAlgorithm.CRC32.of("hello".getBytes(StandardCharsets.US_ASCII));
        String body = "5\r\nhello\r\n0\r\nx-amz-checksum-crc32:" + crc + "\r\n\r\n";
        AwsChunkedInputStream in = new AwsChunkedInputStream(new ByteArrayInputStream(
                body.getBytes(StandardCharsets.US_ASCII)), null, Set.of("x-amz-checksum-crc32"));
        assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("hello");
        assertThat(in.trailers()).containsEntry("x-amz-checksum-crc32", crc);
    }

    @Test
    void signedPayloadWithTrailerChecksTheTrailerSignature() throws IOException {
        String crc = ChecksumAlgorithm.CRC32C.of("hello".getBytes(StandardCharsets.US_ASCII));
        AwsChunkedInputStream.ChunkSigner signer = exampleSigner();
        String s1 = signer.sign(SigV4.hex(SigV4.sha256().digest("hello".getBytes(StandardCharsets.US_ASCII))));
        String s2 = signer.sign(SigV4.EMPTY_SHA256);
        String trailer = "x-amz-checksum-crc32c:" + crc + "\n";
        String ts = signer.signTrailer(trailer);
        String body = "5;chunk-signature=" + s1 + "\r\nhello\r\n0;chunk-signature=" + s2 + "\r\n"
                + "x-amz-checksum-crc32c:" + crc + "\r\nx-amz-trailer-signature:" + ts + "\r\n\r\n";
        AwsChunkedInputStream ok = new AwsChunkedInputStream(new ByteArrayInputStream(
                body.getBytes(StandardCharsets.US_ASCII)), exampleSigner(), Set.of("x-amz-checksum-crc32c"));
        assertThat(new String(ok.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("hello");
        assertThat(ok.trailers()).containsEntry("x-amz-checksum-crc32c", crc);

        String tampered = body.replace("x-amz-checksum-crc32c:" + crc, "x-amz-checksum-crc32c:AAAAAA==");
        AwsChunkedInputStream bad = new AwsChunkedInputStream(new ByteArrayInputStream(
                tampered.getBytes(StandardCharsets.US_ASCII)), exampleSigner(), Set.of("x-amz-checksum-crc32c"));
        assertFails(bad, S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    }

    @Test
    void oversizedChunkHeaderLineIsRejectedBeforeBuffering() {
        String body = "5;" + "x".repeat(AwsChunkedInputStream.MAX_LINE + 10) + "\r\nhello\r\n0\r\n\r\n";
        AwsChunkedInputStream in = new AwsChunkedInputStream(new ByteArrayInputStream(
                body.getBytes(StandardCharsets.US_ASCII)), null, null);
        assertFails(in, S3ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void chunkLargerThanSixteenMebibytesIsRejected() {
        String body = "1000001\r\n";
        AwsChunkedInputStream in = new AwsChunkedInputStream(new ByteArrayInputStream(
                body.getBytes(StandardCharsets.US_ASCII)), null, null);
        assertFails(in, S3ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void chunkSizeWithASignIsInvalidArgument() {
        for (String size : new String[] {"+5", "-0", "0x5", "5 5"}) {
            String body = size + "\r\nhello\r\n0\r\n\r\n";
            AwsChunkedInputStream in = new AwsChunkedInputStream(new ByteArrayInputStream(
                    body.getBytes(StandardCharsets.US_ASCII)), null, null);
            assertFails(in, S3ErrorCode.INVALID_ARGUMENT);
        }
        // a final chunk written "-0" would end the body early with the data unread
        AwsChunkedInputStream negativeZero = new AwsChunkedInputStream(new ByteArrayInputStream(
                "-0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)), null, null);
        assertFails(negativeZero, S3ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void declaredTrailerMissingFromTheTrailerIsMalformedTrailerError() {
        String body = "5\r\nhello\r\n0\r\n\r\n";
        AwsChunkedInputStream in = new AwsChunkedInputStream(new ByteArrayInputStream(
                body.getBytes(StandardCharsets.US_ASCII)), null, Set.of("x-amz-checksum-crc32"));
        assertFails(in, S3ErrorCode.MALFORMED_TRAILER_ERROR);
    }

    @Test
    void undeclaredTrailerIsMalformedTrailerError() {
        String crc = ChecksumAlgorithm.CRC32.of("hello".getBytes(StandardCharsets.US_ASCII));
        String body = "5\r\nhello\r\n0\r\nx-amz-checksum-crc32:" + crc + "\r\n\r\n";
        AwsChunkedInputStream in = new AwsChunkedInputStream(new ByteArrayInputStream(
                body.getBytes(StandardCharsets.US_ASCII)), null, Set.of("x-amz-checksum-sha256"));
        assertFails(in, S3ErrorCode.MALFORMED_TRAILER_ERROR);
    }

    static void assertFails(InputStream in, S3ErrorCode code) {
        assertThatThrownBy(in::readAllBytes).isInstanceOf(IOException.class)
                .cause().isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.error()).isEqualTo(code));
    }
}
