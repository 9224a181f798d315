package io.coffer.sdk.blob;

import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.scheme.AwsV4AuthScheme;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.AsyncSignRequest;
import software.amazon.awssdk.http.auth.spi.signer.AsyncSignedRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.IdentityProvider;
import software.amazon.awssdk.identity.spi.IdentityProviders;

/**
 * SigV4 whose payload is {@code UNSIGNED-PAYLOAD} over plain http as well as over https. The SDK's signer always hashes
 * the body into the signature over http, one SHA-256 pass over every pack Coffer uploads. Coffer does not need it:
 * every byte it stores is already sealed or hashed by Coffer and checked on every read, so a body altered in transit
 * is detected when read back, exactly as one altered at rest. Headers, method, path and query stay signed; the signer
 * only sees the request as https (the protocol is not part of a SigV4 canonical request, the Host header is) and the
 * request goes out over http unchanged. Backends that refuse unsigned payloads over http can turn this off
 * ({@link S3BlobStore.Builder#signPayloadOverHttp}).
 */
final class UnsignedPayloadAuthScheme implements AwsV4AuthScheme {
    private final AwsV4AuthScheme standard = AwsV4AuthScheme.create();
    private final AwsV4HttpSigner signer = new Signer(standard.signer());

    @Override
    public String schemeId() {
        return standard.schemeId();
    }

    @Override
    public IdentityProvider<AwsCredentialsIdentity> identityProvider(IdentityProviders providers) {
        return standard.identityProvider(providers);
    }

    @Override
    public AwsV4HttpSigner signer() {
        return signer;
    }

    private static final class Signer implements AwsV4HttpSigner {
        private final AwsV4HttpSigner delegate;

        Signer(AwsV4HttpSigner delegate) {
            this.delegate = delegate;
        }

        @Override
        public SignedRequest sign(SignRequest<? extends AwsCredentialsIdentity> request) {
            SdkHttpRequest original = request.request();
            if (!isPlainHttp(original)) {
                return delegate.sign(request);
            }
            SignedRequest signed = delegate.sign(request.copy(b -> b.request(asHttps(original))
                    .putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, false)));
            return signed.copy(b -> b.request(backToHttp(signed.request(), original)));
        }

        @Override
        public CompletableFuture<AsyncSignedRequest> signAsync(
                AsyncSignRequest<? extends AwsCredentialsIdentity> request) {
            SdkHttpRequest original = request.request();
            if (!isPlainHttp(original)) {
                return delegate.signAsync(request);
            }
            return delegate.signAsync(request.copy(b -> b.request(asHttps(original))
                            .putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, false)))
                    .thenApply(signed -> signed.copy(b -> b.request(backToHttp(signed.request(), original))));
        }

        /**
         * Plain http on a port that is standard for neither scheme: there the Host header carries the port under
         * both, so it reads the same to the signer and on the wire. On port 80 the signer would see a non-standard
         * https port and sign "host:80" while the HTTP client sends "host": such requests keep the signed payload.
         */
        private static boolean isPlainHttp(SdkHttpRequest r) {
            return "http".equals(r.protocol()) && r.port() != 80 && r.port() != 443;
        }

        /** Same host and port (so the same Host header), seen as https by the signer. */
        private static SdkHttpRequest asHttps(SdkHttpRequest r) {
            return r.toBuilder().protocol("https").port(r.port()).build();
        }

        private static SdkHttpRequest backToHttp(SdkHttpRequest signed, SdkHttpRequest original) {
            return signed.toBuilder().protocol(original.protocol()).port(original.port()).build();
        }
    }
}
