package io.coffer.gateway.s3;

import io.coffer.gateway.xml.XmlElement;
import io.coffer.sdk.Coffer;
import java.io.IOException;
import java.util.Set;

/**
 * PutObjectLegalHold ({@code ?legal-hold}, optional {@code versionId}): a {@code LegalHold} whose Status is ON or OFF;
 * anything else is MalformedXML. The version keeps its id; a bucket without Object Lock is InvalidRequest.
 */
public final class PutObjectLegalHoldHandler implements S3ActionHandler {
    private final Coffer coffer;

    public PutObjectLegalHoldHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        NameRules.checkKey(r.key());
        XmlElement root = ObjectLockXml.read(r, "LegalHold");
        ObjectLockXml.only(root, Set.of("Status"));
        String status = ObjectLockXml.text(root, "Status");
        if (!"ON".equals(status) && !"OFF".equals(status)) {
            throw ObjectLockXml.malformed();
        }
        coffer.putObjectLegalHold(r.bucketRecord(), r.key(), r.queryParam("versionId"), status.equals("ON"));
        return S3Response.empty(200);
    }
}
