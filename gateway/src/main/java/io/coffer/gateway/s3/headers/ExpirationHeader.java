package io.coffer.gateway.s3.headers;

import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Response;
import io.coffer.gateway.s3.lifecycle.LifecycleConfiguration;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectInfo;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * S3's {@code x-amz-expiration} on PUT, GET, HEAD, CopyObject and CompleteMultipartUpload of a current version: when
 * the bucket's lifecycle rules will expire it and which rule will, as
 * {@code expiry-date="Fri, 23 Dec 2012 00:00:00 GMT", rule-id="rule"}. Absent where no enabled expiration rule
 * matches the version's key, size and tags.
 */
public final class ExpirationHeader {
    public static final String NAME = "x-amz-expiration";
    private static final Logger LOG = LoggerFactory.getLogger(ExpirationHeader.class);

    private ExpirationHeader() {
    }

    /** Adds the header for {@code info}, the current version of its key in {@code bucket}. */
    public static void write(S3Response resp, Coffer coffer, Bucket bucket, ObjectInfo info) {
        Optional<byte[]> doc = coffer.bucketConfig(bucket, LifecycleConfiguration.BUCKET_CONFIG);
        if (doc.isEmpty()) {
            return;
        }
        LifecycleConfiguration rules;
        try {
            rules = LifecycleConfiguration.parse(doc.get());
        } catch (S3Exception e) {
            // the sweep reports and skips such a bucket too; a read is not refused for it
            LOG.warn("lifecycle: the stored rules of bucket {} do not parse ({})", bucket.name(), e.getMessage());
            return;
        }
        rules.expiryOf(info).filter(e -> printable(e.ruleId())).ifPresent(e -> resp.header(NAME, "expiry-date=\""
                + ObjectHeaders.httpDate(e.date()) + "\", rule-id=\"" + e.ruleId() + "\""));
    }

    /** A rule id that can stand in a header's quoted string (S3 allows any text; a header cannot carry all of it). */
    private static boolean printable(String id) {
        return id.chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != '"' && c != '\\');
    }
}
