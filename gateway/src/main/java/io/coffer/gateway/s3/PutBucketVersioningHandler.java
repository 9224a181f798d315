package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.Coffer;
import java.io.IOException;
import java.util.Set;

/**
 * PutBucketVersioning: a {@code VersioningConfiguration} whose {@code Status} is Enabled or Suspended sets the bucket's
 * state (kept with the bucket, restored by reindex); without Status nothing changes, as on S3. MFA delete is not
 * offered: {@code MfaDelete} Enabled (or an {@code x-amz-mfa} header) is NotImplemented, Disabled is accepted. Any
 * other document is MalformedXML.
 */
public final class PutBucketVersioningHandler implements S3ActionHandler {
    private static final Set<String> ELEMENTS = Set.of("Status", "MfaDelete");
    private static final XmlRequestReader XML = new XmlRequestReader(4 * 1024, 16);

    private final Coffer coffer;

    public PutBucketVersioningHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        byte[] body = XML.readBytes(r.body());
        ObjectHeaders.checkMd5(ObjectHeaders.contentMd5(r), body);
        XmlElement root = XML.parse(body, "VersioningConfiguration");
        for (XmlElement e : root.children()) {
            if (!ELEMENTS.contains(e.name()) || root.all(e.name()).size() > 1) {
                throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            }
        }
        String mfa = root.childText("MfaDelete");
        if (mfa != null && !mfa.trim().equals("Disabled")) {
            throw mfa.trim().equals("Enabled") ? mfaNotOffered() : new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        if (r.header("x-amz-mfa") != null) {
            throw mfaNotOffered();
        }
        String status = root.childText("Status");
        if (status != null) {
            coffer.putBucketVersioning(r.bucketRecord(), switch (status.trim()) {
                case "Enabled" -> BucketVersioning.ENABLED;
                case "Suspended" -> BucketVersioning.SUSPENDED;
                default -> throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            });
        }
        return S3Response.empty(200);
    }

    private static S3Exception mfaNotOffered() {
        return new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "MFA delete is not offered by this gateway.");
    }
}
