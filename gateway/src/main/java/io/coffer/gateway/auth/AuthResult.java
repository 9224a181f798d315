package io.coffer.gateway.auth;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A request whose signature checked out.
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
        return "AuthResult[accessKeyId=" + credential.accessKeyId() + ", payload=" + payloadHash + ", presigned="
                + presigned + "]";
    }
}
