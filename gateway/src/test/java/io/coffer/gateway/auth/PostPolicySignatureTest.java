package io.coffer.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Who signed a POST form: V4 and V2 policy signatures, and forged, unknown and partial ones. */
class PostPolicySignatureTest {
    static final Credential CRED = new Credential("AKPOST", "post/secret+key", "tenant");
    static final String POLICY = "eyJleHBpcmF0aW9uIjogIjIwMzAtMDEtMDFUMDA6MDA6MDBaIiwgImNvbmRpdGlvbnMiOiBbXX0=";
    static final PostPolicySignature VERIFIER = new PostPolicySignature(CredentialStore.of(CRED), true);

    static Map<String, String> v4(String accessKey, String secret) {
        Map<String, String> f = new HashMap<>();
        f.put("policy", POLICY);
        f.put("x-amz-algorithm", "AWS4-HMAC-SHA256");
        f.put("x-amz-credential", accessKey + "/20260301/us-east-1/s3/aws4_request");
        f.put("x-amz-date", "20260301T120000Z");
        f.put("x-amz-signature", SigV4.sign(SigV4.signingKey(secret, "20260301", "us-east-1", "s3"), POLICY));
        return f;
    }

    static Map<String, String> v2(String accessKey, String secret) {
        Map<String, String> f = new HashMap<>();
        f.put("policy", POLICY);
        f.put("awsaccesskeyid", accessKey);
        f.put("signature", SigV2.sign(secret, POLICY));
        return f;
    }

    @Test
    void signedPoliciesNameTheirCredential() {
        assertThat(VERIFIER.verify(v4(CRED.accessKeyId(), CRED.secretKey()))).isEqualTo(CRED);
        assertThat(VERIFIER.verify(v2(CRED.accessKeyId(), CRED.secretKey()))).isEqualTo(CRED);
        assertThat(VERIFIER.verify(Map.of("key", "k"))).as("an unsigned form").isNull();
    }

    @Test
    void forgedUnknownAndPartialSignaturesAreRefused() {
        assertError(v4(CRED.accessKeyId(), "wrong"), S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
        assertError(v2(CRED.accessKeyId(), "wrong"), S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
        assertError(v4("AKUNKNOWN", CRED.secretKey()), S3ErrorCode.INVALID_ACCESS_KEY_ID);
        Map<String, String> tampered = v4(CRED.accessKeyId(), CRED.secretKey());
        tampered.put("policy", POLICY.replace('e', 'f'));
        assertError(tampered, S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
        Map<String, String> noPolicy = v4(CRED.accessKeyId(), CRED.secretKey());
        noPolicy.remove("policy");
        assertError(noPolicy, S3ErrorCode.INVALID_ARGUMENT);
        Map<String, String> noSignature = v4(CRED.accessKeyId(), CRED.secretKey());
        noSignature.remove("x-amz-signature");
        assertError(noSignature, S3ErrorCode.INVALID_ARGUMENT);
        Map<String, String> badScope = v4(CRED.accessKeyId(), CRED.secretKey());
        badScope.put("x-amz-credential", "AKPOST/yesterday/us-east-1/s3/aws4_request");
        assertError(badScope, S3ErrorCode.INVALID_ARGUMENT);
        Map<String, String> both = v4(CRED.accessKeyId(), CRED.secretKey());
        both.put("awsaccesskeyid", CRED.accessKeyId());
        assertError(both, S3ErrorCode.INVALID_ARGUMENT);
        assertThatThrownBy(() -> new PostPolicySignature(CredentialStore.of(CRED), false)
                .verify(v2(CRED.accessKeyId(), CRED.secretKey()))).isInstanceOfSatisfying(S3Exception.class,
                        e -> assertThat(e.error()).isEqualTo(S3ErrorCode.ACCESS_DENIED));
    }

    static void assertError(Map<String, String> fields, S3ErrorCode code) {
        assertThatThrownBy(() -> VERIFIER.verify(fields)).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.error()).isEqualTo(code));
    }
}
