package io.coffer.gateway.auth;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A request whose signature checked out, or an anonymous one ({@link #anonymous()}: no credential).
 *
 * @param payloadHash the declared payload: a hex SHA-256, UNSIGNED-PAYLOAD or one of the STREAMING-* modes
 * @param signature   the request's own signature: the seed of an aws-chunked signature chain
 * @param signingKey  the SigV4 signing key, null with SigV2 (so are amzDate and scope)
 * @param authParams  the query parameters that carried the authentication, not parameters of the S3 action
 * @param queryHeaders headers a SigV2 presigner moved into the query (x-amz-*, Content-Type, Content-MD5), signed
 *                     as headers and applied as headers; by lower-case name
 */
public record AuthResult(Credential credential, String payloadHash, byte[] signingKey, String amzDate, String scope,
                         String signature, boolean presigned, Set<String> authParams,
                         Map<String, String> queryHeaders) {

    /**
     * A request that carries no signature at all: it acts for nobody ({@link #owner()} null). Its body is taken as
     * {@code declaredPayload} (its x-amz-content-sha256) says, where that needs no signature: a hex SHA-256 (then
     * checked), UNSIGNED-PAYLOAD (also when absent) or STREAMING-UNSIGNED-PAYLOAD-TRAILER (unsigned clients' checksum
     * trailers); a signed streaming payload is AccessDenied.
     */
    public static AuthResult anonymous(String declaredPayload) {
        String payload = declaredPayload == null ? SigV4.UNSIGNED_PAYLOAD : declaredPayload.trim();
        boolean sha256 = payload.length() == 64 && payload.chars().allMatch(c -> Character.digit(c, 16) >= 0);
        if (!sha256 && !payload.equals(SigV4.UNSIGNED_PAYLOAD) && !payload.equals(SigV4.STREAMING_UNSIGNED_TRAILER)) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED, "An unsigned request cannot carry a signed payload ("
                    + payload + ").");
        }
        return new AuthResult(null, payload, null, null, null, null, false, Set.of(), Map.of());
    }

    public boolean isAnonymous() {
        return credential == null;
    }

    /** The tenant the request acts for; null when anonymous. */
    public String owner() {
        return credential == null ? null : credential.owner();
    }

    /** The access key that signed the request; null when anonymous. */
    public String accessKeyId() {
        return credential == null ? null : credential.accessKeyId();
    }

    public boolean streaming() {
        return payloadHash.startsWith("STREAMING-");
    }

    public boolean signedChunks() {
        return payloadHash.equals(SigV4.STREAMING_SIGNED) || payloadHash.equals(SigV4.STREAMING_SIGNED_TRAILER);
    }

    public boolean trailers() {
        return payloadHash.endsWith("-TRAILER");
    }

    /** The hex SHA-256 the body must have, or null when the payload is not signed as a whole. */
    public String payloadSha256() {
        return payloadHash.length() == 64 && payloadHash.chars().allMatch(c -> Character.digit(c, 16) >= 0)
                ? payloadHash.toLowerCase(Locale.ROOT) : null;
    }

    public AwsChunkedInputStream.ChunkSigner chunkSigner() {
        return new AwsChunkedInputStream.ChunkSigner(signingKey, amzDate, scope, signature);
    }

    @Override
    public String toString() {
        return "AuthResult[accessKeyId=" + accessKeyId() + ", payload=" + payloadHash + ", presigned="
                + presigned + "]";
    }
}
