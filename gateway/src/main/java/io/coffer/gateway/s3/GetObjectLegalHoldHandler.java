package io.coffer.gateway.s3;

import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;

/**
 * GetObjectLegalHold ({@code ?legal-hold}, optional {@code versionId}): Status ON or OFF. A version whose legal hold
 * was never set answers OFF (S3 answers NoSuchObjectLockConfiguration there: Coffer does not tell "never set" from
 * "turned off"); a bucket without Object Lock is InvalidRequest.
 */
public final class GetObjectLegalHoldHandler implements S3ActionHandler {
    private final Coffer coffer;

    public GetObjectLegalHoldHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        NameRules.checkKey(r.key());
        boolean on = coffer.objectLock(r.bucketRecord(), r.key(), r.queryParam("versionId")).legalHold();
        return S3Response.xml(200, XmlResponseWriter.document("LegalHold").element("Status", on ? "ON" : "OFF")
                .toBytes());
    }
}
