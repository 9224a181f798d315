package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.s3.headers.ObjectLockHeaders;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.DeletedVersion;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * DeleteObjects: up to 1000 keys, quiet mode, per-key results. S3 requires Content-MD5 or an x-amz-checksum-* header
 * on this request; Content-MD5 is checked here, x-amz-checksum-* by the body stream. Each key is deleted as
 * DeleteObject does it: with a VersionId, that version for good; without, in a versioned bucket, by a new delete
 * marker (reported as DeleteMarker and DeleteMarkerVersionId). An {@code ETag} in an {@code <Object>} makes that key's
 * delete conditional, as If-Match does for DeleteObject (PreconditionFailed or NoSuchKey for that key).
 */
public final class DeleteObjectsHandler implements S3ActionHandler {
    private static final int MAX_KEYS = 1000;
    private static final XmlRequestReader XML = new XmlRequestReader(2 * 1024 * 1024, 4 * MAX_KEYS + 16);
    private final Coffer coffer;

    public DeleteObjectsHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        byte[] md5 = ObjectHeaders.contentMd5(r);
        boolean checksum = r.headers().keySet().stream().anyMatch(h -> h.toLowerCase(Locale.ROOT)
                .startsWith("x-amz-checksum-") && !h.equalsIgnoreCase("x-amz-checksum-mode"))
                || r.header("x-amz-trailer") != null;
        if (md5 == null && !checksum) {
            throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "Missing required header for this request:"
                    + " Content-MD5 or x-amz-checksum-*");
        }
        byte[] body = XML.readBytes(r.body());
        ObjectHeaders.checkMd5(md5, body);
        XmlElement delete = XML.parse(body, "Delete");
        boolean quiet = "true".equalsIgnoreCase(trim(delete.childText("Quiet")));
        List<XmlElement> objects = delete.all("Object");
        if (objects.isEmpty() || objects.size() > MAX_KEYS) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        XmlResponseWriter w = XmlResponseWriter.document("DeleteResult");
        List<String[]> errors = new ArrayList<>();
        for (XmlElement o : objects) {
            String k = o.childText("Key");
            if (k == null || k.isEmpty()) {
                throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            }
            String versionId = trim(o.childText("VersionId"));
            try {
                NameRules.checkKey(k);
                // the ETag an <Object> names: deleted only if the object's matches (S3's conditional DeleteObjects)
                DeletedVersion d = coffer.deleteObjectVersion(r.bucketRecord(), k, versionId,
                        DeleteObjectHandler.ifMatch(o.childText("ETag")), ObjectLockHeaders.bypassGovernance(r));
                if (!quiet) {
                    w.start("Deleted").element("Key", k).element("VersionId", versionId);
                    if (d.deleteMarker()) {
                        w.element("DeleteMarker", true).element("DeleteMarkerVersionId", d.versionId());
                    }
                    w.end();
                }
            } catch (S3Exception e) {
                errors.add(new String[] {k, versionId, e.error().code(), e.getMessage()});
            } catch (CofferException e) {
                S3Exception s3 = S3Exception.from(e);
                errors.add(new String[] {k, versionId, s3.error().code(), s3.getMessage()});
            }
        }
        for (String[] e : errors) {
            // the version the entry named, as S3 answers it (clients match a refused version by it)
            w.start("Error").element("Key", e[0]).element("VersionId", e[1]).element("Code", e[2])
                    .element("Message", e[3]).end();
        }
        return S3Response.xml(200, w.toBytes());
    }

    private static String trim(String s) {
        return s == null ? null : s.trim();
    }
}
