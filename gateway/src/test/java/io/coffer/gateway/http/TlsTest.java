package io.coffer.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.keyserver.pki.Pem;
import io.netty.handler.ssl.SslContextBuilder;
import java.math.BigInteger;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.s3.S3Client;

/** TLS on the S3 endpoint from a PEM certificate and PKCS#8 key, as {@code --tls-cert}/{@code --tls-key} give them. */
class TlsTest {
    @TempDir
    Path dir;

    @Test
    void sdkClientTrustingTheCertificateTalksHttpsAndOthersAreRefused() throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair keys = gen.generateKeyPair();
        X500Name subject = new X500Name("CN=coffer-gateway-test");
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, BigInteger.valueOf(now
                .toEpochMilli()), Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(Duration.ofDays(1))),
                subject, keys.getPublic());
        builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.dNSName, "localhost"), new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
        X509Certificate cert = new JcaX509CertificateConverter().getCertificate(builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
        Path certPem = Files.writeString(dir.resolve("gateway.crt"), Pem.encode("CERTIFICATE", cert.getEncoded()));
        Path keyPem = Files.writeString(dir.resolve("gateway.key"), Pem.encode("PRIVATE KEY",
                keys.getPrivate().getEncoded()));

        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("gateway", cert);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);

        try (RunningGateway g = RunningGateway.start(dir.resolve("data"), o -> o.withSslContext(uncheck(() ->
                SslContextBuilder.forServer(certPem.toFile(), keyPem.toFile()).build())))) {
            URI https = URI.create("https://127.0.0.1:" + g.port());
            try (S3Client s3 = g.clientBuilder().endpointOverride(https)
                    .httpClient(ApacheHttpClient.builder().tlsTrustManagersProvider(tmf::getTrustManagers).build())
                    .build()) {
                s3.createBucket(b -> b.bucket("secure"));
                s3.putObject(r -> r.bucket("secure").key("k"), RequestBody.fromString("over tls"));
                assertThat(s3.getObjectAsBytes(r -> r.bucket("secure").key("k")).asUtf8String())
                        .isEqualTo("over tls");
            }
            try (S3Client untrusting = g.clientBuilder().endpointOverride(https).build()) {
                assertThatThrownBy(untrusting::listBuckets).isInstanceOf(SdkClientException.class)
                        .satisfies(e -> assertThat(causes(e)).as("the default trust store does not know the cert")
                                .hasAtLeastOneElementOfType(SSLHandshakeException.class));
            }
            try (S3Client plain = g.clientBuilder().endpointOverride(URI.create("http://127.0.0.1:" + g.port()))
                    .build()) {
                assertThatThrownBy(plain::listBuckets).as("plain HTTP on the TLS port")
                        .isInstanceOf(SdkClientException.class);
            }
        }
    }

    private static List<Throwable> causes(Throwable t) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable c = t; c != null && !chain.contains(c); c = c.getCause()) {
            chain.add(c);
        }
        return chain;
    }

    private interface Failing<T> {
        T get() throws Exception;
    }

    private static <T> T uncheck(Failing<T> f) {
        try {
            return f.get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
