package io.coffer.gateway.s3;

import static io.coffer.gateway.s3.SdkClientCompatibilityTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.auth.Credential;
import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.TransitionStorageClass;

/**
 * Put/Get/DeleteBucketLifecycleConfiguration through the AWS SDK for Java v2 on the real engine: rules stored with the
 * bucket and read back, replaced whole, refused as S3 refuses them (nothing replaced then), other tenants denied.
 */
class BucketLifecycleTest {
    static final Credential OTHER = new Credential("LIFECYCLEOTHER", "lifecycle-other-secret", "tenant-b");

    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build()).withCredential(OTHER);

    @Test
    void rulesArePutReadReplacedAndDeleted(S3Client s3) {
        String b = "lifecycle-rules";
        s3.createBucket(r -> r.bucket(b));
        assertError(() -> s3.getBucketLifecycleConfiguration(r -> r.bucket(b)), 404, "NoSuchLifecycleConfiguration");

        s3.putBucketLifecycleConfiguration(r -> r.bucket(b).lifecycleConfiguration(c -> c.rules(
                LifecycleRule.builder().id("expire-logs").status(ExpirationStatus.ENABLED)
                        .filter(f -> f.and(a -> a.prefix("logs/").objectSizeLessThan(1_000_000L)
                                .tags(t -> t.key("kind").value("debug"))))
                        .expiration(x -> x.days(14))
                        .noncurrentVersionExpiration(n -> n.noncurrentDays(3).newerNoncurrentVersions(2)).build(),
                LifecycleRule.builder().id("on-date").status(ExpirationStatus.DISABLED)
                        .filter(f -> f.prefix("archive/")).expiration(x -> x.date(Instant.parse(
                                "2031-06-01T00:00:00Z"))).build(),
                LifecycleRule.builder().id("uploads").status(ExpirationStatus.ENABLED).filter(f -> f.prefix(""))
                        .abortIncompleteMultipartUpload(a -> a.daysAfterInitiation(7)).build())));

        List<LifecycleRule> rules = s3.getBucketLifecycleConfiguration(r -> r.bucket(b)).rules();
        assertThat(rules).extracting(LifecycleRule::id).containsExactly("expire-logs", "on-date", "uploads");
        LifecycleRule logs = rules.get(0);
        assertThat(logs.filter().and().prefix()).isEqualTo("logs/");
        assertThat(logs.filter().and().objectSizeLessThan()).isEqualTo(1_000_000L);
        assertThat(logs.filter().and().tags()).singleElement().satisfies(t -> assertThat(t.value()).isEqualTo("debug"));
        assertThat(logs.expiration().days()).isEqualTo(14);
        assertThat(logs.noncurrentVersionExpiration().newerNoncurrentVersions()).isEqualTo(2);
        assertThat(rules.get(1).status()).isEqualTo(ExpirationStatus.DISABLED);
        assertThat(rules.get(1).expiration().date()).isEqualTo(Instant.parse("2031-06-01T00:00:00Z"));
        assertThat(rules.get(2).abortIncompleteMultipartUpload().daysAfterInitiation()).isEqualTo(7);

        List<LifecycleRule> tooMany = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            int n = i;
            tooMany.add(LifecycleRule.builder().id("r" + n).status(ExpirationStatus.ENABLED)
                    .filter(f -> f.prefix("p" + n + "/")).expiration(x -> x.days(1)).build());
        }
        assertError(() -> s3.putBucketLifecycleConfiguration(r -> r.bucket(b).lifecycleConfiguration(c -> c
                .rules(tooMany))), 400, "InvalidRequest");
        assertError(() -> s3.putBucketLifecycleConfiguration(r -> r.bucket(b).lifecycleConfiguration(c -> c.rules(
                LifecycleRule.builder().id("cold").status(ExpirationStatus.ENABLED).filter(f -> f.prefix(""))
                        .transitions(t -> t.days(30).storageClass(TransitionStorageClass.GLACIER)).build()))),
                501, "NotImplemented");
        assertThat(s3.getBucketLifecycleConfiguration(r -> r.bucket(b)).rules()).as("a refused PUT replaces nothing")
                .hasSize(3);

        s3.putBucketLifecycleConfiguration(r -> r.bucket(b).lifecycleConfiguration(c -> c.rules(
                LifecycleRule.builder().id("only").status(ExpirationStatus.ENABLED).filter(f -> f.prefix("x/"))
                        .expiration(x -> x.days(1)).build())));
        assertThat(s3.getBucketLifecycleConfiguration(r -> r.bucket(b)).rules()).extracting(LifecycleRule::id)
                .containsExactly("only");

        try (S3Client other = gateway.newClient(OTHER.accessKeyId(), OTHER.secretKey())) {
            assertError(() -> other.getBucketLifecycleConfiguration(r -> r.bucket(b)), 403, "AccessDenied");
            assertError(() -> other.deleteBucketLifecycle(r -> r.bucket(b)), 403, "AccessDenied");
        }
        s3.deleteBucketLifecycle(r -> r.bucket(b));
        assertError(() -> s3.getBucketLifecycleConfiguration(r -> r.bucket(b)), 404, "NoSuchLifecycleConfiguration");
        s3.deleteBucketLifecycle(r -> r.bucket(b));
    }

    @Test
    void currentVersionsCarryTheirExpirationDateAndTheRuleThatSetsIt(S3Client s3) {
        String b = "lifecycle-expiration-header";
        s3.createBucket(r -> r.bucket(b));
        s3.putObject(r -> r.bucket(b).key("logs/before"), RequestBody.fromString("x"));
        assertThat(s3.headObject(r -> r.bucket(b).key("logs/before")).expiration()).as("no rules yet").isNull();
        s3.putBucketLifecycleConfiguration(r -> r.bucket(b).lifecycleConfiguration(c -> c.rules(
                LifecycleRule.builder().id("logs-week").status(ExpirationStatus.ENABLED)
                        .filter(f -> f.prefix("logs/")).expiration(x -> x.days(7)).build(),
                LifecycleRule.builder().id("debug-day").status(ExpirationStatus.ENABLED)
                        .filter(f -> f.and(a -> a.prefix("logs/").tags(t -> t.key("kind").value("debug"))))
                        .expiration(x -> x.days(1)).build(),
                LifecycleRule.builder().id("off").status(ExpirationStatus.DISABLED)
                        .filter(f -> f.prefix("")).expiration(x -> x.days(1)).build(),
                LifecycleRule.builder().id("tmp-date").status(ExpirationStatus.ENABLED)
                        .filter(f -> f.prefix("tmp/")).expiration(x -> x.date(Instant.parse(
                                "2031-06-01T00:00:00Z"))).build())));

        // S3's rounding: the last modification plus the days, moved on to the next midnight UTC
        PutObjectResponse put = s3.putObject(r -> r.bucket(b).key("logs/a"), RequestBody.fromString("a"));
        Instant modified = s3.headObject(r -> r.bucket(b).key("logs/a")).lastModified();
        String week = DateTimeFormatter.RFC_1123_DATE_TIME.format(modified.plus(Duration.ofDays(8))
                .truncatedTo(ChronoUnit.DAYS).atOffset(ZoneOffset.UTC));
        assertThat(put.expiration()).isEqualTo("expiry-date=\"" + week + "\", rule-id=\"logs-week\"");
        assertThat(s3.headObject(r -> r.bucket(b).key("logs/a")).expiration()).isEqualTo(put.expiration());
        assertThat(s3.getObject(r -> r.bucket(b).key("logs/a")).response().expiration()).isEqualTo(put.expiration());
        assertThat(s3.headObject(r -> r.bucket(b).key("logs/before")).expiration()).as("an object put before the rule")
                .contains("logs-week");

        // the earliest of the matching rules wins: a tag brings the day rule in
        s3.putObject(r -> r.bucket(b).key("logs/d").tagging("kind=debug"), RequestBody.fromString("d"));
        assertThat(s3.headObject(r -> r.bucket(b).key("logs/d")).expiration()).contains("rule-id=\"debug-day\"");
        s3.putObject(r -> r.bucket(b).key("tmp/t"), RequestBody.fromString("t"));
        assertThat(s3.headObject(r -> r.bucket(b).key("tmp/t")).expiration())
                .isEqualTo("expiry-date=\"Sun, 1 Jun 2031 00:00:00 GMT\", rule-id=\"tmp-date\"");
        s3.putObject(r -> r.bucket(b).key("other"), RequestBody.fromString("o"));
        assertThat(s3.headObject(r -> r.bucket(b).key("other")).expiration()).as("only the disabled rule matches")
                .isNull();
    }
}
