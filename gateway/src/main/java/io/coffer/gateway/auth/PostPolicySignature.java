package io.coffer.gateway.auth;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * Who signed a POST Object form: Signature Version 4 ({@code x-amz-algorithm}, {@code x-amz-credential},
 * {@code x-amz-signature}: the hex HMAC of the base64 policy under the signing key of the credential's scope) or
 * Version 2 ({@code AWSAccessKeyId}, {@code signature}: base64 HMAC-SHA1 of the base64 policy under the secret).
 * A form with neither is anonymous. Signatures are compared in constant time.
 */
public final class PostPolicySignature {
    private final CredentialStore credentials;
    private final boolean acceptSigV2;

    public PostPolicySignature(CredentialStore credentials, boolean acceptSigV2) {
        this.credentials = credentials;
        this.acceptSigV2 = acceptSigV2;
    }

    /**
     * The credential that signed the form's policy, or null for an unsigned form. {@code fields} by lower-case name.
     * A signed form without a policy is InvalidArgument, an unknown key InvalidAccessKeyId, a wrong signature
     * SignatureDoesNotMatch.
     */
    public Credential verify(Map<String, String> fields) {
        boolean v4 = fields.containsKey("x-amz-signature") || fields.containsKey("x-amz-algorithm")
                || fields.containsKey("x-amz-credential");
        boolean v2 = fields.containsKey("awsaccesskeyid") || fields.containsKey("signature");
        if (!v4 && !v2) {
            return null;
        }
        if (v4 && v2) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Only one auth mechanism allowed.");
        }
        String policy = fields.get("policy");
        if (policy == null) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT,
                    "Bucket POST must contain a field named 'policy'. If it is specified, please check the order of"
                            + " the fields.");
        }
        return v4 ? verifyV4(fields, policy) : verifyV2(fields, policy);
    }

    private Credential verifyV4(Map<String, String> fields, String policy) {
        String algorithm = required(fields, "x-amz-algorithm");
        if (!algorithm.equals(SigV4.ALGORITHM)) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Unsupported x-amz-algorithm: " + algorithm);
        }
        String[] scope = required(fields, "x-amz-credential").split("/", -1);
        if (scope.length != 5 || !scope[4].equals("aws4_request") || !scope[1].matches("\\d{8}")) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid x-amz-credential: expected"
                    + " ACCESSKEY/yyyyMMdd/REGION/SERVICE/aws4_request.");
        }
        Credential c = credential(scope[0]);
        byte[] key = SigV4.signingKey(c.secretKey(), scope[1], scope[2], scope[3]);
        if (!SigV4.signaturesEqual(SigV4.sign(key, policy), required(fields, "x-amz-signature"))) {
            throw new S3Exception(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
        }
        return c;
    }

    private Credential verifyV2(Map<String, String> fields, String policy) {
        if (!acceptSigV2) {
            throw new S3Exception(S3ErrorCode.ACCESS_DENIED, RequestAuthenticator.SIGV2_REFUSED);
        }
        Credential c = credential(required(fields, "awsaccesskeyid"));
        String expected = SigV2.sign(c.secretKey(), policy);
        if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                required(fields, "signature").getBytes(StandardCharsets.US_ASCII))) {
            throw new S3Exception(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
        }
        return c;
    }

    private Credential credential(String accessKeyId) {
        return credentials.find(accessKeyId).orElseThrow(() -> new S3Exception(S3ErrorCode.INVALID_ACCESS_KEY_ID));
    }

    private static String required(Map<String, String> fields, String name) {
        String v = fields.get(name);
        if (v == null || v.isEmpty()) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Bucket POST must contain a field named '" + name
                    + "'.");
        }
        return v.trim();
    }
}
