package io.coffer.gateway.auth;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.time.Clock;

/**
 * Authenticates a request with whichever AWS signature it carries: Signature Version 4 (header or presigned query)
 * or, unless refused by configuration, Signature Version 2 (header or query). A request with no trace of a signature
 * (no Authorization header, no signature query parameter) is anonymous: what it may do is decided per bucket and
 * object by their public grants (S3Dispatcher, PublicAccess).
 */
public final class RequestAuthenticator {
    public static final String SIGV2_REFUSED = "Signature Version 2 is turned off on this server (auth-sigv2 ="
            + " false); sign requests with AWS4-HMAC-SHA256 (Signature Version 4)";

    private final SigV4Verifier v4;
    private final SigV2Verifier v2;
    private final boolean acceptSigV2;

    public RequestAuthenticator(CredentialStore credentials, Clock clock, boolean acceptSigV2) {
        this.v4 = new SigV4Verifier(credentials, clock);
        this.v2 = new SigV2Verifier(credentials, clock);
        this.acceptSigV2 = acceptSigV2;
    }

    /** Verifies the request or throws the S3 error a client would get from S3. */
    public AuthResult verify(SignedRequest r) {
        boolean header = r.header("authorization") != null;
        boolean query = r.queryParam("X-Amz-Signature") != null || r.queryParam("X-Amz-Algorithm") != null
                || r.queryParam("Signature") != null || r.queryParam("AWSAccessKeyId") != null;
        if (!header && !query && r.queryParam("X-Amz-Credential") == null) {
            return AuthResult.anonymous(r.header("x-amz-content-sha256"));
        }
        if (header && query) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Only one auth mechanism allowed; only the"
                    + " X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header"
                    + " should be specified");
        }
        if (SigV2Verifier.applies(r)) {
            if (!acceptSigV2) {
                throw new S3Exception(S3ErrorCode.ACCESS_DENIED, SIGV2_REFUSED);
            }
            return v2.verify(r);
        }
        return v4.verify(r);
    }
}
