package io.coffer.gateway.s3.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.error.S3Exception;
import io.coffer.sdk.CofferException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** S3's LifecycleConfiguration document: what is accepted, how it is written back, and each refusal's error. */
class LifecycleConfigurationTest {
    private static LifecycleConfiguration parse(String rules) {
        return LifecycleConfiguration.parse(("<LifecycleConfiguration"
                + " xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">" + rules + "</LifecycleConfiguration>").getBytes(StandardCharsets.UTF_8));
    }

    private static String error(String rules) {
        try {
            parse(rules);
        } catch (S3Exception e) {
            return e.error().code();
        } catch (CofferException e) {
            return e.code().name();
        }
        throw new AssertionError("accepted: " + rules);
    }

    @Test
    void everyFilterFormAndActionIsReadAndWrittenBackInTheSameShape() {
        LifecycleConfiguration c = parse("<Rule><ID>logs</ID><Filter><And><Prefix>logs/</Prefix>"
                + "<Tag><Key>tier</Key><Value>tmp</Value></Tag><ObjectSizeGreaterThan>10</ObjectSizeGreaterThan>"
                + "<ObjectSizeLessThan>1000</ObjectSizeLessThan></And></Filter><Status>Enabled</Status>"
                + "<Expiration><Days>30</Days></Expiration><NoncurrentVersionExpiration><NoncurrentDays>7"
                + "</NoncurrentDays><NewerNoncurrentVersions>2</NewerNoncurrentVersions></NoncurrentVersionExpiration>"
                + "</Rule>"
                + "<Rule><ID>legacy</ID><Prefix>old/</Prefix><Status>Disabled</Status>"
                + "<Expiration><Date>2030-01-01T00:00:00.000Z</Date></Expiration></Rule>"
                + "<Rule><Filter></Filter><Status>Enabled</Status><Expiration><ExpiredObjectDeleteMarker>true"
                + "</ExpiredObjectDeleteMarker></Expiration><AbortIncompleteMultipartUpload><DaysAfterInitiation>3"
                + "</DaysAfterInitiation></AbortIncompleteMultipartUpload></Rule>");

        LifecycleRule logs = c.rules().get(0);
        assertThat(logs.filter().form()).isEqualTo(LifecycleFilter.Form.AND);
        assertThat(logs.filter().tags()).isEqualTo(Map.of("tier", "tmp"));
        assertThat(logs.expiration().days()).isEqualTo(30);
        assertThat(logs.noncurrent()).isEqualTo(new LifecycleRule.NoncurrentExpiration(7, 2));
        assertThat(c.rules().get(1).enabled()).isFalse();
        assertThat(c.rules().get(1).expiration().date()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
        assertThat(c.rules().get(2).id()).as("S3 gives a rule without an ID one").isNotBlank();
        assertThat(c.rules().get(2).abortAfterDays()).isEqualTo(3);

        String xml = new String(c.toXml(), StandardCharsets.UTF_8);
        assertThat(xml).contains("<Prefix>old/</Prefix><Status>Disabled</Status>")
                .contains("<Filter/>").contains("<Date>2030-01-01T00:00:00.000Z</Date>");
        assertThat(LifecycleConfiguration.parse(c.toXml())).as("the stored document reads back as it was")
                .isEqualTo(c);
    }

    @Test
    void theDocumentBotocoreSendsIsRead() {
        // botocore 1.x's serialisation of put-bucket-lifecycle-configuration (ID, Status, Filter, actions)
        LifecycleConfiguration c = parse("<Rule><ID>tmp</ID><Status>Enabled</Status><Filter><Prefix>tmp/</Prefix>"
                + "</Filter><Expiration><Days>3</Days></Expiration><AbortIncompleteMultipartUpload>"
                + "<DaysAfterInitiation>1</DaysAfterInitiation></AbortIncompleteMultipartUpload></Rule><Rule><ID>old"
                + "</ID><Status>Enabled</Status><Filter><Tag><Key>keep</Key><Value>no</Value></Tag></Filter>"
                + "<NoncurrentVersionExpiration><NoncurrentDays>30</NoncurrentDays></NoncurrentVersionExpiration>"
                + "</Rule>");
        assertThat(c.rules()).extracting(LifecycleRule::id).containsExactly("tmp", "old");
    }

    @Test
    void structuralMistakesAreMalformedXml() {
        String expire = "<Expiration><Days>1</Days></Expiration>";
        assertThat(error("")).isEqualTo("MalformedXML");
        assertThat(error("<Rule><Prefix/><Status>enabled</Status>" + expire + "</Rule>")).isEqualTo("MalformedXML");
        assertThat(error("<Rule><Status>Enabled</Status>" + expire + "</Rule>")).as("no Prefix or Filter")
                .isEqualTo("MalformedXML");
        assertThat(error("<Rule><Prefix/><Filter/><Status>Enabled</Status>" + expire + "</Rule>"))
                .isEqualTo("MalformedXML");
        assertThat(error("<Rule><Filter><Prefix>a</Prefix><Tag><Key>k</Key><Value>v</Value></Tag></Filter>"
                + "<Status>Enabled</Status>" + expire + "</Rule>")).as("two predicates outside And")
                .isEqualTo("MalformedXML");
        assertThat(error("<Rule><Prefix/><Status>Enabled</Status><Expiration><Days>1</Days><Date>2030-01-01</Date>"
                + "</Expiration></Rule>")).isEqualTo("MalformedXML");
        assertThat(error("<Rule><Prefix/><Status>Enabled</Status><Expiration><Days>ten</Days></Expiration></Rule>"))
                .isEqualTo("MalformedXML");
        assertThat(error("<Rule><Prefix/><Status>Enabled</Status>" + expire + "<Unknown/></Rule>"))
                .isEqualTo("MalformedXML");
    }

    @Test
    void valuesS3RefusesAreInvalidArgumentOrInvalidRequest() {
        String expire = "<Expiration><Days>1</Days></Expiration>";
        assertThat(error("<Rule><ID>a</ID><Prefix/><Status>Enabled</Status>" + expire + "</Rule>"
                + "<Rule><ID>a</ID><Prefix/><Status>Enabled</Status>" + expire + "</Rule>"))
                .as("repeated ID").isEqualTo("InvalidArgument");
        assertThat(error("<Rule><ID>" + "x".repeat(256) + "</ID><Prefix/><Status>Enabled</Status>" + expire
                + "</Rule>")).isEqualTo("InvalidArgument");
        assertThat(error("<Rule><Prefix/><Status>Enabled</Status><Expiration><Days>0</Days></Expiration></Rule>"))
                .isEqualTo("InvalidArgument");
        assertThat(error("<Rule><Prefix/><Status>Enabled</Status><Expiration><Date>2030-01-01T12:00:00Z</Date>"
                + "</Expiration></Rule>")).as("not midnight").isEqualTo("InvalidArgument");
        assertThat(error("<Rule><Prefix/><Status>Enabled</Status><NoncurrentVersionExpiration><NoncurrentDays>-1"
                + "</NoncurrentDays></NoncurrentVersionExpiration></Rule>")).isEqualTo("InvalidArgument");
        assertThat(error("<Rule><Filter><Tag><Key>k</Key><Value>v</Value></Tag></Filter><Status>Enabled</Status>"
                + "<AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation>"
                + "</AbortIncompleteMultipartUpload></Rule>")).as("uploads have no tags").isEqualTo("InvalidArgument");
        assertThat(error("<Rule><Filter><And><ObjectSizeGreaterThan>10</ObjectSizeGreaterThan><ObjectSizeLessThan>10"
                + "</ObjectSizeLessThan></And></Filter><Status>Enabled</Status>" + expire + "</Rule>"))
                .isEqualTo("InvalidArgument");
        assertThat(error("<Rule><Prefix/><Status>Enabled</Status></Rule>")).as("no action")
                .isEqualTo("InvalidRequest");
        assertThat(error(("<Rule><Prefix/><Status>Enabled</Status>" + expire + "</Rule>").repeat(1001)))
                .isEqualTo("InvalidRequest");
        assertThat(error("<Rule><Prefix/><Status>Enabled</Status><Transition><Days>1</Days><StorageClass>GLACIER"
                + "</StorageClass></Transition></Rule>")).as("one storage class").isEqualTo("NotImplemented");
    }

    @Test
    void anActionIsDueAtTheFirstMidnightUtcAfterItsDays() {
        assertThat(LifecycleRule.due(Instant.parse("2026-01-01T10:00:00Z"), 1))
                .isEqualTo(Instant.parse("2026-01-03T00:00:00Z"));
        assertThat(LifecycleRule.due(Instant.parse("2026-01-01T00:00:00Z"), 1))
                .isEqualTo(Instant.parse("2026-01-02T00:00:00Z"));
    }
}
