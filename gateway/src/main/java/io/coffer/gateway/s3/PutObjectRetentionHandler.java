package io.coffer.gateway.s3;

import io.coffer.gateway.s3.headers.ObjectLockHeaders;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectLockMode;
import java.io.IOException;
import java.time.Instant;
import java.util.Set;

/**
 * PutObjectRetention ({@code ?retention}, optional {@code versionId}): a {@code Retention} with Mode and
 * RetainUntilDate sets the version's retention, one with neither removes it; one without the other, or an unknown
 * mode, is MalformedXML. The engine refuses a shortened or weakened retention that still holds with AccessDenied
 * unless it is GOVERNANCE and {@code x-amz-bypass-governance-retention: true} is sent. The version keeps its id.
 */
public final class PutObjectRetentionHandler implements S3ActionHandler {
    private final Coffer coffer;

    public PutObjectRetentionHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        NameRules.checkKey(r.key());
        XmlElement root = ObjectLockXml.read(r, "Retention");
        ObjectLockXml.only(root, Set.of("Mode", "RetainUntilDate"));
        String mode = ObjectLockXml.text(root, "Mode");
        String until = ObjectLockXml.text(root, "RetainUntilDate");
        if ((mode == null) != (until == null)) {
            throw ObjectLockXml.malformed();
        }
        ObjectLockMode parsed = mode == null ? null : ObjectLockMode.parse(mode);
        if (mode != null && parsed == null) {
            throw ObjectLockXml.malformed();
        }
        Instant date = until == null ? null : ObjectLockHeaders.parseDate(until);
        coffer.putObjectRetention(r.bucketRecord(), r.key(), r.queryParam("versionId"), parsed, date,
                ObjectLockHeaders.bypassGovernance(r));
        return S3Response.empty(200);
    }
}
