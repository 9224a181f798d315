package io.coffer.gateway.http;

import io.coffer.gateway.auth.CredentialStore;
import io.coffer.gateway.s3.sse.KmsKeySource;
import io.coffer.gateway.s3.sse.KmsKeyring;
import io.netty.handler.ssl.SslContext;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * What the S3 server needs to run, already validated and resolved (TLS context built, credentials loaded).
 *
 * @param baseDomain           virtual-hosted-style base domain ({@code bucket.<baseDomain>}), or null for path style only
 * @param sslContext           TLS server context, or null for plain HTTP
 * @param maxInitialLineLength longest request line accepted (longer: 400 with an S3 error, connection closed)
 * @param maxHeaderSize        largest header section accepted (larger: 400 RequestHeaderSectionTooLarge)
 * @param idleTimeout          a connection with no request in flight and no traffic for this long is closed; also
 *                             how long a request body may stall
 * @param workerThreads        threads that run S3 actions (engine calls block)
 * @param bodyBufferBytes      request body bytes buffered per connection before reading pauses
 * @param shutdownGrace        how long graceful shutdown waits for in-flight requests
 * @param acceptSigV2          accept AWS Signature Version 2 (else only Version 4)
 * @param publicAccessTenants  tenants whose account-level Block Public Access is off ({@code *}: every tenant); for
 *                             all others public ACLs are refused and ignored
 * @param sseCustomerOverHttp  accept SSE-C requests over plain http (S3 refuses them; with TLS they are accepted)
 * @param kmsKeys              the keys SSE-KMS requests name ({@code kms-keyring}, or a KMS: {@code kms-endpoint});
 *                             {@link KmsKeyring#NONE} refuses them
 */
public record S3ServerOptions(String bindAddress, int port, String baseDomain, String region, SslContext sslContext,
                              CredentialStore credentials, int maxInitialLineLength, int maxHeaderSize,
                              Duration idleTimeout, int workerThreads, int bodyBufferBytes, Duration shutdownGrace,
                              Clock clock, boolean acceptSigV2, Set<String> publicAccessTenants,
                              boolean sseCustomerOverHttp, KmsKeySource kmsKeys) {
    public static final String EVERY_TENANT = "*";

    public S3ServerOptions {
        kmsKeys = kmsKeys == null ? KmsKeyring.NONE : kmsKeys;
        publicAccessTenants = publicAccessTenants == null ? Set.of() : Set.copyOf(publicAccessTenants);
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(region, "region");
        clock = clock == null ? Clock.systemUTC() : clock;
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    /** Options without a KMS keyring. */
    public S3ServerOptions(String bindAddress, int port, String baseDomain, String region, SslContext sslContext,
                           CredentialStore credentials, int maxInitialLineLength, int maxHeaderSize,
                           Duration idleTimeout, int workerThreads, int bodyBufferBytes, Duration shutdownGrace,
                           Clock clock, boolean acceptSigV2, Set<String> publicAccessTenants,
                           boolean sseCustomerOverHttp) {
        this(bindAddress, port, baseDomain, region, sslContext, credentials, maxInitialLineLength, maxHeaderSize,
                idleTimeout, workerThreads, bodyBufferBytes, shutdownGrace, clock, acceptSigV2, publicAccessTenants,
                sseCustomerOverHttp, KmsKeyring.NONE);
    }

    /** Options that refuse SSE-C over plain http. */
    public S3ServerOptions(String bindAddress, int port, String baseDomain, String region, SslContext sslContext,
                           CredentialStore credentials, int maxInitialLineLength, int maxHeaderSize,
                           Duration idleTimeout, int workerThreads, int bodyBufferBytes, Duration shutdownGrace,
                           Clock clock, boolean acceptSigV2, Set<String> publicAccessTenants) {
        this(bindAddress, port, baseDomain, region, sslContext, credentials, maxInitialLineLength, maxHeaderSize,
                idleTimeout, workerThreads, bodyBufferBytes, shutdownGrace, clock, acceptSigV2, publicAccessTenants,
                false);
    }

    /** Options with Block Public Access on for every tenant. */
    public S3ServerOptions(String bindAddress, int port, String baseDomain, String region, SslContext sslContext,
                           CredentialStore credentials, int maxInitialLineLength, int maxHeaderSize,
                           Duration idleTimeout, int workerThreads, int bodyBufferBytes, Duration shutdownGrace,
                           Clock clock, boolean acceptSigV2) {
        this(bindAddress, port, baseDomain, region, sslContext, credentials, maxInitialLineLength, maxHeaderSize,
                idleTimeout, workerThreads, bodyBufferBytes, shutdownGrace, clock, acceptSigV2, Set.of());
    }

    /** True when {@code tenant} may make buckets and objects public (its account-level block is off). */
    public boolean tenantMayPublish(String tenant) {
        return publicAccessTenants.contains(EVERY_TENANT) || publicAccessTenants.contains(tenant);
    }

    /** Defaults for a local gateway: 8 KiB request line, 16 KiB headers, 1 MiB body buffer, 64 workers. */
    public static S3ServerOptions defaults(String bindAddress, int port, CredentialStore credentials) {
        return new S3ServerOptions(bindAddress, port, null, "us-east-1", null, credentials, 8 * 1024, 16 * 1024,
                Duration.ofSeconds(60), 64, 1024 * 1024, Duration.ofSeconds(30), Clock.systemUTC(), true);
    }

    public S3ServerOptions withBaseDomain(String domain) {
        return new S3ServerOptions(bindAddress, port, domain, region, sslContext, credentials, maxInitialLineLength,
                maxHeaderSize, idleTimeout, workerThreads, bodyBufferBytes, shutdownGrace, clock,
                acceptSigV2, publicAccessTenants, sseCustomerOverHttp, kmsKeys);
    }

    public S3ServerOptions withSslContext(SslContext ctx) {
        return new S3ServerOptions(bindAddress, port, baseDomain, region, ctx, credentials, maxInitialLineLength,
                maxHeaderSize, idleTimeout, workerThreads, bodyBufferBytes, shutdownGrace, clock,
                acceptSigV2, publicAccessTenants, sseCustomerOverHttp, kmsKeys);
    }

    public S3ServerOptions withClock(Clock c) {
        return new S3ServerOptions(bindAddress, port, baseDomain, region, sslContext, credentials, maxInitialLineLength,
                maxHeaderSize, idleTimeout, workerThreads, bodyBufferBytes, shutdownGrace, c,
                acceptSigV2, publicAccessTenants, sseCustomerOverHttp, kmsKeys);
    }

    public S3ServerOptions withLimits(int initialLine, int headers, int bodyBuffer, Duration idle) {
        return new S3ServerOptions(bindAddress, port, baseDomain, region, sslContext, credentials, initialLine, headers,
                idle, workerThreads, bodyBuffer, shutdownGrace, clock,
                acceptSigV2, publicAccessTenants, sseCustomerOverHttp, kmsKeys);
    }

    public S3ServerOptions withRegion(String r) {
        return new S3ServerOptions(bindAddress, port, baseDomain, r, sslContext, credentials, maxInitialLineLength,
                maxHeaderSize, idleTimeout, workerThreads, bodyBufferBytes, shutdownGrace, clock,
                acceptSigV2, publicAccessTenants, sseCustomerOverHttp, kmsKeys);
    }

    public S3ServerOptions withPublicAccessTenants(Set<String> tenants) {
        return new S3ServerOptions(bindAddress, port, baseDomain, region, sslContext, credentials, maxInitialLineLength,
                maxHeaderSize, idleTimeout, workerThreads, bodyBufferBytes, shutdownGrace, clock, acceptSigV2, tenants,
                sseCustomerOverHttp, kmsKeys);
    }

    public S3ServerOptions withSseCustomerOverHttp(boolean allow) {
        return new S3ServerOptions(bindAddress, port, baseDomain, region, sslContext, credentials, maxInitialLineLength,
                maxHeaderSize, idleTimeout, workerThreads, bodyBufferBytes, shutdownGrace, clock, acceptSigV2,
                publicAccessTenants, allow, kmsKeys);
    }

    public S3ServerOptions withKmsKeys(KmsKeySource keyring) {
        return new S3ServerOptions(bindAddress, port, baseDomain, region, sslContext, credentials, maxInitialLineLength,
                maxHeaderSize, idleTimeout, workerThreads, bodyBufferBytes, shutdownGrace, clock, acceptSigV2,
                publicAccessTenants, sseCustomerOverHttp, keyring);
    }

    /** Whether SSE-C requests are accepted: always over TLS, over plain http only when configured. */
    public boolean acceptsCustomerKeys() {
        return sslContext != null || sseCustomerOverHttp;
    }

    public S3ServerOptions withSigV2(boolean accept) {
        return new S3ServerOptions(bindAddress, port, baseDomain, region, sslContext, credentials, maxInitialLineLength,
                maxHeaderSize, idleTimeout, workerThreads, bodyBufferBytes, shutdownGrace, clock,
                accept, publicAccessTenants, sseCustomerOverHttp, kmsKeys);
    }
}
