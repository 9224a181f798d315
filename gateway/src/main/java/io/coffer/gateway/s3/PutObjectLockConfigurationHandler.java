package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectLockConfiguration;
import io.coffer.sdk.ObjectLockMode;
import java.io.IOException;
import java.util.Set;

/**
 * PutObjectLockConfiguration: {@code ObjectLockEnabled} Enabled, with an optional {@code Rule} whose
 * {@code DefaultRetention} names a Mode and exactly one of Days and Years. Missing or unknown elements, an unknown
 * mode, or both Days and Years are MalformedXML; a period that is not a positive number is InvalidRetentionPeriod;
 * a bucket without Object Lock whose versioning is not enabled is InvalidBucketState (the engine's rules).
 */
public final class PutObjectLockConfigurationHandler implements S3ActionHandler {
    private final Coffer coffer;

    public PutObjectLockConfigurationHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        XmlElement root = ObjectLockXml.read(r, "ObjectLockConfiguration");
        ObjectLockXml.only(root, Set.of("ObjectLockEnabled", "Rule"));
        if (!"Enabled".equals(ObjectLockXml.text(root, "ObjectLockEnabled"))) {
            throw ObjectLockXml.malformed();
        }
        ObjectLockConfiguration configuration = ObjectLockConfiguration.NO_DEFAULT;
        if (!root.all("Rule").isEmpty()) {
            XmlElement rule = root.all("Rule").get(0);
            ObjectLockXml.only(rule, Set.of("DefaultRetention"));
            if (rule.all("DefaultRetention").isEmpty()) {
                throw ObjectLockXml.malformed();
            }
            configuration = defaultRetention(rule.all("DefaultRetention").get(0));
        }
        coffer.putObjectLockConfiguration(r.bucketRecord(), configuration);
        return S3Response.empty(200);
    }

    private static ObjectLockConfiguration defaultRetention(XmlElement retention) {
        ObjectLockXml.only(retention, Set.of("Mode", "Days", "Years"));
        ObjectLockMode mode = ObjectLockMode.parse(ObjectLockXml.text(retention, "Mode"));
        String days = ObjectLockXml.text(retention, "Days");
        String years = ObjectLockXml.text(retention, "Years");
        if (mode == null || (days == null) == (years == null)) {
            throw ObjectLockXml.malformed();
        }
        int amount = period(days != null ? days : years);
        return days != null ? new ObjectLockConfiguration(mode, amount, 0)
                : new ObjectLockConfiguration(mode, 0, amount);
    }

    private static int period(String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new S3Exception(S3ErrorCode.INVALID_RETENTION_PERIOD);
    }
}
