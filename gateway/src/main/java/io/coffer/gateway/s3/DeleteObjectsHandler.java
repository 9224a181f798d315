package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.DeleteResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * DeleteObjects: up to 1000 keys, quiet mode, per-key results. S3 requires Content-MD5 or an x-amz-checksum-* header
 * on this request; Content-MD5 is checked here, x-amz-checksum-* by the body stream. A VersionId of {@code null} (the
 * one version of an object in a bucket that never had versioning) deletes the object; any other is that key's
 * NoSuchVersion. An {@code ETag} in an {@code <Object>} makes that key's delete conditional, as If-Match does for
 * DeleteObject (PreconditionFailed or NoSuchKey for that key).
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
        List<String> valid = new ArrayList<>();
        // the ETag an <Object> names: deleted only if the object's matches (S3's conditional DeleteObjects)
        List<String> ifMatch = new ArrayList<>();
        // the version named for each key, echoed in <Deleted>: only S3's null version exists (never versioned)
        Map<String, String> versionIds = new HashMap<>();
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
                if (versionId != null && !versionId.equals(ListObjectVersionsHandler.NULL_VERSION)) {
                    throw new S3Exception(S3ErrorCode.NO_SUCH_VERSION);
                }
                valid.add(k);
                ifMatch.add(DeleteObjectHandler.ifMatch(o.childText("ETag")));
                if (versionId != null) {
                    versionIds.put(k, versionId);
                }
            } catch (S3Exception e) {
                errors.add(new String[] {k, e.error().code(), e.getMessage()});
            }
        }
        List<DeleteResult> results = new ArrayList<>(valid.size());
        for (int i = 0; i < valid.size(); i++) {
            try {
                coffer.deleteObject(r.bucketRecord(), valid.get(i), ifMatch.get(i));
                results.add(new DeleteResult(valid.get(i), null));
            } catch (CofferException e) {
                results.add(new DeleteResult(valid.get(i), e));
            }
        }
        for (DeleteResult d : results) {
            if (d.error() == null) {
                if (!quiet) {
                    w.start("Deleted").element("Key", d.key()).element("VersionId", versionIds.get(d.key())).end();
                }
            } else {
                S3Exception e = S3Exception.from(d.error());
                errors.add(new String[] {d.key(), e.error().code(), e.getMessage()});
            }
        }
        for (String[] e : errors) {
            w.start("Error").element("Key", e[0]).element("Code", e[1]).element("Message", e[2]).end();
        }
        return S3Response.xml(200, w.toBytes());
    }

    private static String trim(String s) {
        return s == null ? null : s.trim();
    }
}
