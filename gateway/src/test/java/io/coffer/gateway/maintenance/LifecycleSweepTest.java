package io.coffer.gateway.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.s3.lifecycle.LifecycleConfiguration;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectLockConfiguration;
import io.coffer.sdk.ObjectLockMode;
import io.coffer.sdk.ObjectVersion;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayInputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lifecycle sweep on the real engine with the clock moved on by days: which objects, versions, delete markers and
 * uploads each rule makes due, that everything else stays, the lease among gateways, metrics and the dry run.
 */
class LifecycleSweepTest {
    @TempDir
    Path dir;
    private final PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private JdbcMetadataStore meta;

    @BeforeEach
    void store() {
        meta = JdbcMetadataStore.sqlite(dir.resolve("meta.db"));
    }

    @Test
    void currentObjectsPastTheirRulesDaysAreDeletedAndEverythingElseStays() throws Exception {
        try (Coffer coffer = engine()) {
            coffer.createBucket("plain", "t");
            rules(coffer, "plain", rule("logs", "<Prefix>logs/</Prefix>", "<Expiration><Days>3</Days></Expiration>")
                    + rule("tmp", "<Filter><Tag><Key>tmp</Key><Value>yes</Value></Tag></Filter>",
                    "<Expiration><Days>1</Days></Expiration>")
                    + rule("big", "<Filter><ObjectSizeGreaterThan>1000</ObjectSizeGreaterThan></Filter>",
                    "<Expiration><Days>10</Days></Expiration>")
                    + rule("off", "<Filter><Prefix>keep/</Prefix></Filter>", "<Expiration><Days>1</Days></Expiration>")
                    .replace("Enabled", "Disabled"));
            put(coffer, "plain", "logs/a", 10);
            put(coffer, "plain", "keep/b", 10);
            put(coffer, "plain", "tagged", 10);
            coffer.putObjectTags("plain", "tagged", Map.of("tmp", "yes"));
            put(coffer, "plain", "untagged", 10);
            coffer.putObjectTags("plain", "untagged", Map.of("tmp", "no"));
            put(coffer, "plain", "big", 2000);

            assertThat(sweep(coffer, 2).runOnce()).hasValueSatisfying(r -> {
                assertThat(r.currentExpired()).isEqualTo(1);
                assertThat(r.buckets()).isEqualTo(1);
            });
            assertThat(keys(coffer, "plain")).containsExactly("big", "keep/b", "logs/a", "untagged");
            sweep(coffer, 4).runOnce();
            assertThat(keys(coffer, "plain")).containsExactly("big", "keep/b", "untagged");
            sweep(coffer, 11).runOnce();
            assertThat(keys(coffer, "plain")).containsExactly("keep/b", "untagged");
            assertThat(meters.scrape()).contains("coffer_lifecycle_expired_total{kind=\"current\"} 3.0")
                    .contains("coffer_lifecycle_runs_total 3.0");
            assertThat(coffer.fsck(false).clean()).isTrue();
        }
    }

    @Test
    void versionedKeysGetDeleteMarkersNoncurrentVersionsGoAndLoneMarkersAreRemoved() throws Exception {
        try (Coffer coffer = engine()) {
            coffer.createBucket("vers", "t");
            coffer.putBucketVersioning(coffer.headBucket("vers"), BucketVersioning.ENABLED);
            rules(coffer, "vers", rule("k", "<Filter><Prefix>k</Prefix></Filter>",
                    "<Expiration><Days>30</Days></Expiration><NoncurrentVersionExpiration><NoncurrentDays>7"
                            + "</NoncurrentDays><NewerNoncurrentVersions>1</NewerNoncurrentVersions>"
                            + "</NoncurrentVersionExpiration>")
                    + rule("gone", "<Filter><Prefix>gone/</Prefix></Filter>", "<Expiration><ExpiredObjectDeleteMarker>"
                    + "true</ExpiredObjectDeleteMarker></Expiration><NoncurrentVersionExpiration><NoncurrentDays>1"
                    + "</NoncurrentDays></NoncurrentVersionExpiration>"));
            put(coffer, "vers", "k", 1);
            put(coffer, "vers", "k", 2);
            put(coffer, "vers", "k", 3);
            put(coffer, "vers", "gone/x", 4);
            coffer.deleteObject("vers", "gone/x");
            put(coffer, "vers", "other", 5);
            coffer.deleteObject("vers", "other");

            sweep(coffer, 2).runOnce();
            assertThat(versions(coffer, "vers", "gone/")).as("the noncurrent version went; the marker was not alone")
                    .containsExactly("gone/x marker");
            sweep(coffer, 3).runOnce();
            assertThat(versions(coffer, "vers", "gone/")).as("now it is, and goes").isEmpty();
            assertThat(versions(coffer, "vers", "k")).hasSize(3);

            sweep(coffer, 8).runOnce();
            assertThat(versions(coffer, "vers", "k")).as("the newest noncurrent version is kept")
                    .containsExactly("k current 3", "k noncurrent 2");
            sweep(coffer, 31).runOnce();
            assertThat(versions(coffer, "vers", "k")).containsExactly("k marker", "k noncurrent 3", "k noncurrent 2");
            assertThat(versions(coffer, "vers", "other")).as("no rule names it").hasSize(2);
            assertThat(meters.scrape()).contains("coffer_lifecycle_expired_total{kind=\"delete_marker\"} 1.0")
                    .contains("coffer_lifecycle_expired_total{kind=\"noncurrent\"} 2.0")
                    .contains("coffer_lifecycle_expired_total{kind=\"current\"} 1.0");
            assertThat(coffer.fsck(false).clean()).isTrue();
        }
    }

    @Test
    void incompleteUploadsUnderTheRulesPrefixAreAbortedAfterTheirDays() throws Exception {
        try (Coffer coffer = engine()) {
            coffer.createBucket("mpu", "t");
            rules(coffer, "mpu", rule("abort", "<Filter><Prefix>tmp/</Prefix></Filter>",
                    "<AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation>"
                            + "</AbortIncompleteMultipartUpload>"));
            String doomed = coffer.createMultipartUpload("mpu", "tmp/u");
            coffer.uploadPart("mpu", "tmp/u", doomed, 1, 3, new ByteArrayInputStream(new byte[] {1, 2, 3}));
            coffer.createMultipartUpload("mpu", "keep/u");

            sweep(coffer, 1).runOnce();
            assertThat(coffer.listMultipartUploads("mpu", null, null, 10).uploads()).hasSize(2);
            assertThat(sweep(coffer, 3).runOnce()).hasValueSatisfying(r -> assertThat(r.uploadsAborted()).isOne());
            assertThat(coffer.listMultipartUploads("mpu", null, null, 10).uploads())
                    .extracting(u -> u.key()).containsExactly("keep/u");
            assertThat(meters.scrape()).contains("coffer_lifecycle_uploads_aborted_total 1.0");
        }
    }

    @Test
    void aTurnIsSkippedWhileAnotherGatewayHoldsTheLeaseAndTheDryRunChangesNothing() throws Exception {
        try (Coffer coffer = engine()) {
            coffer.createBucket("lease-bkt", "t");
            rules(coffer, "lease-bkt", rule("all", "<Filter/>", "<Expiration><Days>1</Days></Expiration>"));
            put(coffer, "lease-bkt", "k", 1);
            Instant now = Instant.now();
            meta.acquireLease(LifecycleSweep.LEASE, "gateway-b", now, now.plusSeconds(60));

            assertThat(sweep(coffer, 5).runOnce()).isEmpty();
            assertThat(keys(coffer, "lease-bkt")).containsExactly("k");
            assertThat(meters.scrape()).contains("coffer_lifecycle_lease_busy_total 1.0");

            LifecycleReport plan = LifecycleSweep.plan(coffer, now.plus(Duration.ofDays(5)));
            assertThat(plan.currentExpired()).isOne();
            assertThat(keys(coffer, "lease-bkt")).containsExactly("k");

            meta.releaseLease(LifecycleSweep.LEASE, "gateway-b");
            assertThat(sweep(coffer, 5).runOnce()).hasValueSatisfying(r -> assertThat(r.currentExpired()).isOne());
            assertThat(keys(coffer, "lease-bkt")).isEmpty();
        }
    }

    @Test
    void aDeletionTheEngineRefusesLeavesTheObjectIsCountedAsSkippedAndTheSweepGoesOn() throws Exception {
        try (Coffer engine = engine()) {
            // the engine refuses deletes of one key, as it will a locked version's: the sweep must not get round it
            Coffer refusing = (Coffer) Proxy.newProxyInstance(Coffer.class.getClassLoader(),
                    new Class<?>[] {Coffer.class}, (proxy, method, args) -> {
                        if (method.getName().equals("deleteObjectVersion") && "held".equals(args[1])) {
                            throw CofferException.of(ErrorCode.SERVICE_UNAVAILABLE, "refused");
                        }
                        try {
                            return method.invoke(engine, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            engine.createBucket("refusals", "t");
            rules(engine, "refusals", rule("all", "<Filter/>", "<Expiration><Days>1</Days></Expiration>"));
            put(engine, "refusals", "a", 1);
            put(engine, "refusals", "held", 2);
            put(engine, "refusals", "z", 3);

            assertThat(sweep(refusing, 3).runOnce()).hasValueSatisfying(r -> {
                assertThat(r.currentExpired()).isEqualTo(2);
                assertThat(r.skipped()).isOne();
            });
            assertThat(keys(engine, "refusals")).containsExactly("held");
            assertThat(meters.scrape()).contains("coffer_lifecycle_skipped_total 1.0");
        }
    }

    @Test
    void aVersionUnderObjectLockOutlivesItsRuleAndIsCountedAsSkipped() throws Exception {
        try (Coffer coffer = engine()) {
            Bucket b = coffer.createBucket("locked", "t", null, true);
            // every new version is kept 30 days in COMPLIANCE mode: the engine refuses its removal, lifecycle included
            coffer.putObjectLockConfiguration(b, new ObjectLockConfiguration(ObjectLockMode.COMPLIANCE, 30, 0));
            rules(coffer, "locked", rule("short", "<Filter/>",
                    "<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration>"));
            put(coffer, "locked", "k", 1);
            put(coffer, "locked", "k", 2);

            assertThat(sweep(coffer, 3).runOnce()).hasValueSatisfying(r -> assertThat(r.skipped()).isOne());
            assertThat(versions(coffer, "locked", "k")).containsExactly("k current 2", "k noncurrent 1");
            assertThat(coffer.fsck(false).clean()).isTrue();
        }
    }

    @Test
    void anIntervalMustBePositive() {
        assertThatThrownBy(() -> new LifecycleSweep(null, Duration.ZERO, 10, meters, Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private LifecycleSweep sweep(Coffer coffer, int daysOn) {
        return new LifecycleSweep(coffer, Duration.ofHours(1), new DeletionPacer(1e9, System::nanoTime, n -> {
        }), meters, Clock.offset(Clock.systemUTC(), Duration.ofDays(daysOn)));
    }

    private static String rule(String id, String filter, String actions) {
        return "<Rule><ID>" + id + "</ID>" + filter + "<Status>Enabled</Status>" + actions + "</Rule>";
    }

    private static void rules(Coffer coffer, String bucket, String rules) {
        LifecycleConfiguration c = LifecycleConfiguration.parse(("<LifecycleConfiguration>" + rules
                + "</LifecycleConfiguration>").getBytes(StandardCharsets.UTF_8));
        coffer.putBucketConfig(coffer.headBucket(bucket), LifecycleConfiguration.BUCKET_CONFIG, c.toXml());
    }

    private static void put(Coffer coffer, String bucket, String key, int size) {
        coffer.putObject(PutObjectRequest.of(bucket, key, size), new ByteArrayInputStream(new byte[size]));
    }

    private static List<String> keys(Coffer coffer, String bucket) {
        return coffer.listObjects(bucket, null, null, 1000).objects().stream().map(o -> o.key()).toList();
    }

    /** Each version of keys under {@code prefix}, newest first: "key marker", "key current N", "key noncurrent N". */
    private static List<String> versions(Coffer coffer, String bucket, String prefix) {
        return coffer.listObjectVersions(bucket, prefix, null, null, null, 1000).versions().stream()
                .map(LifecycleSweepTest::describe).toList();
    }

    private static String describe(ObjectVersion v) {
        return v.key() + (v.deleteMarker() ? " marker" : (v.latest() ? " current " : " noncurrent ") + v.size());
    }

    private Coffer engine() throws Exception {
        return Coffer.builder().blobStore(new DirectoryBlobStore(dir.resolve("blobs"))).metadataStore(meta)
                .masterKey(MasterKey.random()).gcGrace(Duration.ofHours(1)).meterRegistry(meters).build();
    }
}
