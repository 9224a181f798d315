package io.coffer.gateway.s3;

import io.coffer.gateway.auth.ChecksumAlgorithm;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectInfo;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * GetObjectAttributes: the attributes named in {@code x-amz-object-attributes} (ETag, Checksum, ObjectParts,
 * StorageClass, ObjectSize) in one document, what HeadObject and ListParts would tell. As S3 does for a general
 * purpose bucket, ObjectParts gives only the part count, and only for a multipart object (per-part entries come only
 * with per-part checksums, which Coffer does not keep); Checksum only when the object was stored with checksums.
 */
public final class GetObjectAttributesHandler implements S3ActionHandler {
    /** In the order S3's response lists them. */
    private static final List<String> ATTRIBUTES = List.of("ETag", "Checksum", "ObjectParts", "StorageClass",
            "ObjectSize");
    private final Coffer coffer;

    public GetObjectAttributesHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        Set<String> wanted = wanted(r.header("x-amz-object-attributes"));
        ObjectInfo info = coffer.headObject(r.bucket(), r.key());
        Map<String, String> checksums = info.attributes().checksums();
        XmlResponseWriter w = XmlResponseWriter.document("GetObjectAttributesResponse");
        if (wanted.contains("ETag")) {
            w.element("ETag", info.etag()); // unquoted here, unlike the ETag header
        }
        if (wanted.contains("Checksum") && !checksums.isEmpty()) {
            w.start("Checksum");
            for (Map.Entry<String, String> c : checksums.entrySet()) {
                ChecksumAlgorithm.fromName(c.getKey()).ifPresent(a -> w.element("Checksum" + a.name(), c.getValue()));
            }
            w.element("ChecksumType", ObjectHeaders.checksumType(info)).end();
        }
        if (wanted.contains("ObjectParts") && info.partCount() > 0) {
            // the SDKs' TotalPartsCount travels as PartsCount
            w.start("ObjectParts").element("PartsCount", info.partCount()).end();
        }
        if (wanted.contains("StorageClass")) {
            w.element("StorageClass", "STANDARD");
        }
        if (wanted.contains("ObjectSize")) {
            w.element("ObjectSize", info.size());
        }
        return S3Response.xml(200, w.toBytes()).header("Last-Modified", ObjectHeaders.httpDate(info.lastModified()));
    }

    private static Set<String> wanted(String header) {
        if (header == null || header.isBlank()) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "The x-amz-object-attributes header specifying the "
                    + "attributes to be retrieved is either missing or empty");
        }
        Set<String> wanted = new LinkedHashSet<>();
        for (String name : header.split(",")) {
            String n = name.trim();
            if (!ATTRIBUTES.contains(n)) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid attribute name specified.");
            }
            wanted.add(n);
        }
        return wanted;
    }
}
