package io.coffer.gateway.auth;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.sdk.blob.ReadThroughInputStream;
import io.coffer.sdk.checksum.ChecksumAlgorithm;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Passes a request body through while computing its SHA-256 (when the request signed a hex payload hash), the
 * requested {@code x-amz-checksum-*} values and its length, and checks them all at the end: instead of reporting EOF
 * it throws an {@link IOException} caused by an {@link S3Exception} (XAmzContentSHA256Mismatch, BadDigest,
 * IncompleteBody, EntityTooLarge), so an engine that commits at EOF aborts and stores nothing.
 */
public final class VerifyingInputStream extends ReadThroughInputStream {
    private final String expectedSha256Hex;
    private final MessageDigest sha256;
    private final Map<ChecksumAlgorithm, ChecksumAlgorithm.Running> running = new EnumMap<>(ChecksumAlgorithm.class);
    private final Supplier<Map<ChecksumAlgorithm, String>> expectedChecksums;
    private final long expectedLength;
    private final long maxLength;
    private final Map<String, String> verified = new LinkedHashMap<>();
    private long count;
    private boolean done;
    private IOException failure;

    /**
     * @param expectedSha256Hex  the signed payload hash, or null when the payload is unsigned or aws-chunked
     * @param algorithms         checksums to compute
     * @param expectedChecksums  the expected values, asked at EOF (trailers are known only then); an algorithm without
     *                           an expected value is computed and reported but not checked
     * @param expectedLength     the body length the request declared, or -1
     * @param maxLength          the most bytes the body may carry (EntityTooLarge past it, for bodies of no declared
     *                           length)
     */
    public VerifyingInputStream(InputStream in, String expectedSha256Hex, Iterable<ChecksumAlgorithm> algorithms,
                                Supplier<Map<ChecksumAlgorithm, String>> expectedChecksums, long expectedLength,
                                long maxLength) {
        super(in);
        this.expectedSha256Hex = expectedSha256Hex;
        this.sha256 = expectedSha256Hex == null ? null : SigV4.sha256();
        for (ChecksumAlgorithm a : algorithms) {
            running.put(a, a.start());
        }
        this.expectedChecksums = expectedChecksums;
        this.expectedLength = expectedLength;
        this.maxLength = maxLength;
    }

    /** The verified checksums by algorithm name (CRC32 ...), base64; complete once EOF was reported. */
    public Map<String, String> checksums() {
        return verified;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (failure != null) {
            throw failure;
        }
        if (done) {
            return -1;
        }
        int n = in.read(b, off, len);
        if (n < 0) {
            try {
                finish();
            } catch (S3Exception e) {
                failure = e.asIOException();
                throw failure;
            }
            done = true;
            return -1;
        }
        count += n;
        if (expectedLength >= 0 && count > expectedLength) {
            failure = new S3Exception(S3ErrorCode.INCOMPLETE_BODY, "The body is longer than the declared length.")
                    .asIOException();
            throw failure;
        }
        if (count > maxLength) {
            failure = new S3Exception(S3ErrorCode.ENTITY_TOO_LARGE).asIOException();
            throw failure;
        }
        if (sha256 != null) {
            sha256.update(b, off, n);
        }
        for (ChecksumAlgorithm.Running r : running.values()) {
            r.update(b, off, n);
        }
        return n;
    }

    private void finish() {
        if (expectedLength >= 0 && count != expectedLength) {
            throw new S3Exception(S3ErrorCode.INCOMPLETE_BODY);
        }
        if (sha256 != null && !SigV4.signaturesEqual(SigV4.hex(sha256.digest()), expectedSha256Hex)) {
            throw new S3Exception(S3ErrorCode.X_AMZ_CONTENT_SHA256_MISMATCH);
        }
        Map<ChecksumAlgorithm, String> expected = expectedChecksums.get();
        for (Map.Entry<ChecksumAlgorithm, ChecksumAlgorithm.Running> e : running.entrySet()) {
            String actual = e.getValue().base64();
            String want = expected.get(e.getKey());
            if (want != null && !want.equals(actual)) {
                throw new S3Exception(S3ErrorCode.BAD_DIGEST, "The " + e.getKey().headerName()
                        + " you specified did not match the calculated checksum.");
            }
            verified.put(e.getKey().name(), actual);
        }
    }
}
