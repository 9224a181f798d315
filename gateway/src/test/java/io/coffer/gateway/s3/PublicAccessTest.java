package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.GetPublicAccessBlockResponse;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;

/**
 * Who other than a bucket's tenant may do what: anonymous requests (an unsigned SDK client) and another tenant's key
 * get exactly what public grants allow (object READ: GET/HEAD; bucket READ: list; bucket WRITE: PUT and DELETE),
 * and only while Block Public Access lets them count. "tenant" has its account-level block off; "tenant-b" keeps
 * the default (on).
 */
class PublicAccessTest {
    static final Credential OTHER = new Credential("PUBLICOTHERKEY", "public-other-secret", "tenant-b");

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withCredential(OTHER)
            .withPublicAccessTenants("tenant");

    static S3Client anonymous;
    static S3Client other;

    @BeforeAll
    static void clients() {
        anonymous = S3Client.builder().endpointOverride(gateway.endpoint()).region(Region.US_EAST_1)
                .forcePathStyle(true).credentialsProvider(AnonymousCredentialsProvider.create()).build();
        other = gateway.newClient(OTHER.accessKeyId(), OTHER.secretKey());
        S3Client s3 = gateway.client();
        s3.createBucket(b -> b.bucket("pub-private"));
        s3.putObject(r -> r.bucket("pub-private").key("public").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("public bytes"));
        s3.putObject(r -> r.bucket("pub-private").key("secret"), RequestBody.fromString("secret bytes"));
        s3.putObject(r -> r.bucket("pub-private").key("members").acl(ObjectCannedACL.AUTHENTICATED_READ),
                RequestBody.fromString("members bytes"));
        s3.createBucket(b -> b.bucket("pub-listed").acl(BucketCannedACL.PUBLIC_READ));
        s3.putObject(r -> r.bucket("pub-listed").key("a"), RequestBody.fromString("a"));
        s3.createBucket(b -> b.bucket("pub-dropbox").acl(BucketCannedACL.PUBLIC_READ_WRITE));
    }

    @AfterAll
    static void close() {
        anonymous.close();
        other.close();
    }

    @Test
    void anonymousReadsExactlyThePublicReadObjects() {
        assertThat(anonymous.getObjectAsBytes(r -> r.bucket("pub-private").key("public")).asUtf8String())
                .isEqualTo("public bytes");
        assertThat(anonymous.headObject(r -> r.bucket("pub-private").key("public")).contentLength()).isEqualTo(12);
        assertError(() -> anonymous.getObjectAsBytes(r -> r.bucket("pub-private").key("secret")), 403,
                "AccessDenied");
        assertError(() -> anonymous.getObjectAsBytes(r -> r.bucket("pub-private").key("members")), 403,
                "AccessDenied");
        // a missing key in a bucket the caller may not list: AccessDenied, so that its absence is not told
        assertError(() -> anonymous.getObjectAsBytes(r -> r.bucket("pub-private").key("missing")), 403,
                "AccessDenied");
        assertError(() -> anonymous.listObjectsV2(r -> r.bucket("pub-private")), 403, "AccessDenied");
        assertError(() -> anonymous.getObjectAcl(r -> r.bucket("pub-private").key("public")), 403, "AccessDenied");
        assertError(() -> anonymous.putObject(r -> r.bucket("pub-private").key("public"),
                RequestBody.fromString("overwrite")), 403, "AccessDenied");
        assertError(() -> anonymous.deleteObject(r -> r.bucket("pub-private").key("public")), 403, "AccessDenied");
        assertError(() -> anonymous.listBuckets(), 403, "AccessDenied");
        assertError(() -> anonymous.createBucket(b -> b.bucket("anon-bucket")), 403, "AccessDenied");
        assertThat(gateway.client().getObjectAsBytes(r -> r.bucket("pub-private").key("public")).asUtf8String())
                .isEqualTo("public bytes");
    }

    @Test
    void anonymousRequestsAreInTheAccessLog() throws InterruptedException {
        Logger access = (Logger) LoggerFactory.getLogger("io.coffer.gateway.access");
        Level level = access.getLevel();
        ListAppender<ILoggingEvent> seen = new ListAppender<>();
        seen.start();
        access.addAppender(seen);
        access.setLevel(Level.INFO);
        try {
            anonymous.getObjectAsBytes(r -> r.bucket("pub-private").key("public"));
            assertError(() -> anonymous.getObjectAsBytes(r -> r.bucket("pub-private").key("secret")), 403,
                    "AccessDenied");
            // the entry is written once the response is, which the client may see first
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!logged(seen, "key=secret") && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        } finally {
            access.detachAppender(seen);
            access.setLevel(level);
        }
        List<ILoggingEvent> lines;
        synchronized (seen) {
            lines = List.copyOf(seen.list);
        }
        assertThat(lines).extracting(ILoggingEvent::getFormattedMessage)
                .anySatisfy(line -> assertThat(line).contains("access_key_id=- operation=GetObject")
                        .contains("key=public").contains("status=200"))
                .anySatisfy(line -> assertThat(line).contains("access_key_id=- operation=GetObject")
                        .contains("key=secret").contains("status=403").contains("error_code=AccessDenied"));
    }

    /** ListAppender appends under its own lock (AppenderBase.doAppend), so reads take it too. */
    private static boolean logged(ListAppender<ILoggingEvent> appender, String text) {
        synchronized (appender) {
            return appender.list.stream().anyMatch(e -> e.getFormattedMessage().contains(text));
        }
    }

    @Test
    void aPublicReadBucketIsListedAnonymouslyAndTellsMissingKeys() {
        assertThat(anonymous.listObjectsV2(r -> r.bucket("pub-listed")).contents()).extracting(o -> o.key())
                .containsExactly("a");
        assertThat(anonymous.listObjects(r -> r.bucket("pub-listed")).contents()).hasSize(1);
        assertError(() -> anonymous.getObjectAsBytes(r -> r.bucket("pub-listed").key("a")), 403, "AccessDenied");
        assertError(() -> anonymous.getObjectAsBytes(r -> r.bucket("pub-listed").key("missing")), 404, "NoSuchKey");
        assertError(() -> anonymous.getBucketAcl(r -> r.bucket("pub-listed")), 403, "AccessDenied");
        assertError(() -> anonymous.listObjectsV2(r -> r.bucket("no-such-bucket-here")), 404, "NoSuchBucket");
    }

    @Test
    void aPublicReadWriteBucketTakesAnonymousPutsAsTheTenantsObjects() {
        anonymous.putObject(r -> r.bucket("pub-dropbox").key("dropped"), RequestBody.fromString("dropped bytes"));
        assertThat(gateway.client().getObjectAsBytes(r -> r.bucket("pub-dropbox").key("dropped")).asUtf8String())
                .isEqualTo("dropped bytes");
        assertThat(gateway.client().getObjectAcl(r -> r.bucket("pub-dropbox").key("dropped")).owner().id())
                .isEqualTo("tenant");
        assertError(() -> anonymous.getObjectAsBytes(r -> r.bucket("pub-dropbox").key("dropped")), 403,
                "AccessDenied");
        anonymous.deleteObject(r -> r.bucket("pub-dropbox").key("dropped"));
        assertThat(gateway.client().listObjectsV2(r -> r.bucket("pub-dropbox")).contents()).isEmpty();
        assertError(() -> anonymous.createMultipartUpload(r -> r.bucket("pub-dropbox").key("mp")), 403,
                "AccessDenied");
    }

    @Test
    void anotherTenantReadsAuthenticatedReadAndPublicObjectsOnly() {
        assertThat(other.getObjectAsBytes(r -> r.bucket("pub-private").key("members")).asUtf8String())
                .isEqualTo("members bytes");
        assertThat(other.getObjectAsBytes(r -> r.bucket("pub-private").key("public")).asUtf8String())
                .isEqualTo("public bytes");
        assertError(() -> other.getObjectAsBytes(r -> r.bucket("pub-private").key("secret")), 403, "AccessDenied");
        assertError(() -> other.listObjectsV2(r -> r.bucket("pub-private")), 403, "AccessDenied");
        assertError(() -> other.putObjectAcl(r -> r.bucket("pub-private").key("public").acl(ObjectCannedACL.PRIVATE)),
                403, "AccessDenied");
    }

    @Test
    void aTenantUnderTheDefaultBlockCannotMakeAnythingPublic() {
        other.createBucket(b -> b.bucket("blocked-tenant"));
        assertError(() -> other.createBucket(b -> b.bucket("blocked-public").acl(BucketCannedACL.PUBLIC_READ)), 403,
                "AccessDenied");
        assertError(() -> other.putBucketAcl(r -> r.bucket("blocked-tenant").acl(BucketCannedACL.PUBLIC_READ)), 403,
                "AccessDenied");
        assertError(() -> other.putObject(r -> r.bucket("blocked-tenant").key("k").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("x")), 403, "AccessDenied");
        other.putObject(r -> r.bucket("blocked-tenant").key("k").acl(ObjectCannedACL.PRIVATE),
                RequestBody.fromString("x"));
        // its bucket's own (absent) flags cannot lift the tenant's block
        other.putPublicAccessBlock(r -> r.bucket("blocked-tenant").publicAccessBlockConfiguration(c -> c
                .blockPublicAcls(false).ignorePublicAcls(false)));
        assertError(() -> other.putObjectAcl(r -> r.bucket("blocked-tenant").key("k")
                .acl(ObjectCannedACL.PUBLIC_READ)), 403, "AccessDenied");
        assertError(() -> anonymous.getObjectAsBytes(r -> r.bucket("blocked-tenant").key("k")), 403, "AccessDenied");
        assertThat(other.getObjectAsBytes(r -> r.bucket("blocked-tenant").key("k")).asUtf8String()).isEqualTo("x");
    }

    @Test
    void aBucketsPublicAccessBlockRefusesAndIgnoresPublicAcls() {
        S3Client s3 = gateway.client();
        s3.createBucket(b -> b.bucket("pub-blockable"));
        s3.putObject(r -> r.bucket("pub-blockable").key("o").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("o"));
        assertError(() -> s3.getPublicAccessBlock(r -> r.bucket("pub-blockable")), 404,
                "NoSuchPublicAccessBlockConfiguration");
        assertThat(anonymous.getObjectAsBytes(r -> r.bucket("pub-blockable").key("o")).asUtf8String())
                .isEqualTo("o");

        s3.putPublicAccessBlock(r -> r.bucket("pub-blockable").publicAccessBlockConfiguration(c -> c
                .blockPublicAcls(true).ignorePublicAcls(false).blockPublicPolicy(true)));
        GetPublicAccessBlockResponse got = s3.getPublicAccessBlock(r -> r.bucket("pub-blockable"));
        assertThat(got.publicAccessBlockConfiguration().blockPublicAcls()).isTrue();
        assertThat(got.publicAccessBlockConfiguration().ignorePublicAcls()).isFalse();
        assertThat(got.publicAccessBlockConfiguration().blockPublicPolicy()).isTrue();
        assertThat(got.publicAccessBlockConfiguration().restrictPublicBuckets()).isFalse();
        assertError(() -> s3.putObjectAcl(r -> r.bucket("pub-blockable").key("o")
                .acl(ObjectCannedACL.AUTHENTICATED_READ)), 403, "AccessDenied");
        assertError(() -> s3.putBucketAcl(r -> r.bucket("pub-blockable").acl(BucketCannedACL.PUBLIC_READ)), 403,
                "AccessDenied");
        // BlockPublicAcls refuses new public ACLs; the one already set still counts
        assertThat(anonymous.getObjectAsBytes(r -> r.bucket("pub-blockable").key("o")).asUtf8String())
                .isEqualTo("o");

        s3.putPublicAccessBlock(r -> r.bucket("pub-blockable").publicAccessBlockConfiguration(c -> c
                .ignorePublicAcls(true)));
        assertError(() -> anonymous.getObjectAsBytes(r -> r.bucket("pub-blockable").key("o")), 403, "AccessDenied");
        assertError(() -> other.getObjectAsBytes(r -> r.bucket("pub-blockable").key("o")), 403, "AccessDenied");
        assertThat(s3.getObjectAsBytes(r -> r.bucket("pub-blockable").key("o")).asUtf8String()).isEqualTo("o");

        s3.deletePublicAccessBlock(r -> r.bucket("pub-blockable"));
        assertError(() -> s3.getPublicAccessBlock(r -> r.bucket("pub-blockable")), 404,
                "NoSuchPublicAccessBlockConfiguration");
        assertThat(anonymous.getObjectAsBytes(r -> r.bucket("pub-blockable").key("o")).asUtf8String())
                .isEqualTo("o");
        assertError(() -> other.putPublicAccessBlock(r -> r.bucket("pub-blockable")
                .publicAccessBlockConfiguration(c -> c.ignorePublicAcls(false))), 403, "AccessDenied");
    }
}
