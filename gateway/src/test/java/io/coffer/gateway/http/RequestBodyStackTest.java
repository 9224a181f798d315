package io.coffer.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.auth.AuthResult;
import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.auth.SigV4;
import io.coffer.gateway.auth.VerifyingInputStream;
import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Operation;
import io.coffer.gateway.s3.headers.ObjectSizeLimit;
import io.coffer.sdk.checksum.ChecksumAlgorithm;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** What a request declares about its body is checked up front; the stack decodes aws-chunked and verifies checksums. */
class RequestBodyStackTest {
    private static final Credential KEY = new Credential("BODYSTACKKEY", "body-stack-secret", "tenant");
    private static final String HELLO_CRC32 = ChecksumAlgorithm.CRC32.of("hello".getBytes(StandardCharsets.US_ASCII));

    @Test
    void streamingPayloadWithoutDecodedLengthOrChunkedTransferIsMissingContentLength() {
        assertError(() -> new RequestBodyStack(put(Map.of("content-length", "40")), S3Operation.PUT_OBJECT,
                auth(SigV4.STREAMING_UNSIGNED_TRAILER), Map.of("content-length", "40")),
                S3ErrorCode.MISSING_CONTENT_LENGTH);
    }

    @Test
    void declaredUploadOverFiveGibIsEntityTooLargeBeforeAnyByteIsRead() {
        String tooLarge = Long.toString(ObjectSizeLimit.MAX_UPLOAD_BYTES + 1);
        assertError(() -> new RequestBodyStack(put(Map.of("content-length", tooLarge)), S3Operation.PUT_OBJECT,
                auth(SigV4.UNSIGNED_PAYLOAD), Map.of("content-length", tooLarge)), S3ErrorCode.ENTITY_TOO_LARGE);
    }

    @Test
    void negativeDecodedLengthIsInvalidArgument() {
        Map<String, String> headers = Map.of("content-length", "40", "x-amz-decoded-content-length", "-1");
        assertError(() -> new RequestBodyStack(put(headers), S3Operation.PUT_OBJECT,
                auth(SigV4.STREAMING_UNSIGNED_TRAILER), headers), S3ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void trailerHeaderWithoutTrailerPayloadIsMalformedTrailer() {
        Map<String, String> headers = Map.of("content-length", "5", "x-amz-trailer", "x-amz-checksum-crc32");
        assertError(() -> new RequestBodyStack(put(headers), S3Operation.PUT_OBJECT, auth(SigV4.UNSIGNED_PAYLOAD),
                headers), S3ErrorCode.MALFORMED_TRAILER_ERROR);
    }

    @Test
    void unsignedChunkedBodyIsDecodedAndItsTrailingChecksumVerified() throws Exception {
        var in = chunkedHello(HELLO_CRC32);
        assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("hello");
        assertThat(in.checksums()).containsEntry("CRC32", HELLO_CRC32);
    }

    @Test
    void trailingChecksumThatDoesNotMatchTheBodyIsBadDigest() {
        String wrong = ChecksumAlgorithm.CRC32.of("HELLO".getBytes(StandardCharsets.US_ASCII));
        var in = chunkedHello(wrong);
        assertError(in::readAllBytes, S3ErrorCode.BAD_DIGEST);
    }

    private static VerifyingInputStream chunkedHello(String crc32) {
        String body = "5\r\nhello\r\n0\r\nx-amz-checksum-crc32:" + crc32 + "\r\n\r\n";
        Map<String, String> headers = Map.of("content-length", Integer.toString(body.length()),
                "x-amz-decoded-content-length", "5", "x-amz-trailer", "x-amz-checksum-crc32");
        RequestBodyStack stack = new RequestBodyStack(put(headers), S3Operation.PUT_OBJECT,
                auth(SigV4.STREAMING_UNSIGNED_TRAILER), headers);
        assertThat(stack.decodedLength()).isEqualTo(5);
        return stack.over(new ByteArrayInputStream(body.getBytes(StandardCharsets.US_ASCII)));
    }

    private static HttpRequest put(Map<String, String> headers) {
        HttpRequest req = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.PUT, "/bucket/key");
        headers.forEach((k, v) -> req.headers().set(k, v));
        return req;
    }

    private static AuthResult auth(String payloadHash) {
        return new AuthResult(KEY, payloadHash, new byte[32], "20260101T000000Z", "20260101/us-east-1/s3/aws4_request",
                "0".repeat(64), false, Set.of(), new HashMap<>());
    }

    private static void assertError(ThrowingCallable call, S3ErrorCode code) {
        assertThatThrownBy(call).satisfies(t -> assertThat(S3Exception.from(t).error()).isEqualTo(code));
    }
}
