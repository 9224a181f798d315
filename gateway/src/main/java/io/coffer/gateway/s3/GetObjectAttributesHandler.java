package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.gateway.s3.sse.ServerSideEncryption;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectInfo;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * GetObjectAttributes: the attributes named in {@code x-amz-object-attributes} (ETag, Checksum, ObjectParts,
 * StorageClass, ObjectSize) in one document, what HeadObject and ListParts would tell. ObjectParts, for a multipart
 * object, gives the part count and a page of its parts (x-amz-max-parts, default and at most 1000, after
 * x-amz-part-number-marker) with their sizes and, when the upload had a checksum algorithm, checksums; Checksum only
 * when the object was stored with checksums.
 */
public final class GetObjectAttributesHandler implements S3ActionHandler {
    /** In the order S3's response lists them. */
    private static final List<String> ATTRIBUTES = List.of("ETag", "Checksum", "ObjectParts", "StorageClass",
            "ObjectSize");
    private static final int MAX_PARTS = 1000;
    private final Coffer coffer;
    private final ServerSideEncryption encryption;

    public GetObjectAttributesHandler(Coffer coffer, ServerSideEncryption encryption) {
        this.coffer = coffer;
        this.encryption = encryption;
    }

    @Override
    public S3Response handle(S3Request r) {
        Set<String> wanted = wanted(r.header("x-amz-object-attributes"));
        // an object under a customer key answers only with its key, as HeadObject does
        ObjectInfo info = coffer.headObjectKeyed(r.bucket(), r.key(), r.queryParam("versionId"),
                encryption.forRead(r));
        Map<String, String> checksums = info.attributes().checksums();
        XmlResponseWriter w = XmlResponseWriter.document("GetObjectAttributesResponse");
        if (wanted.contains("ETag")) {
            w.element("ETag", info.etag()); // unquoted here, unlike the ETag header
        }
        if (wanted.contains("Checksum") && !checksums.isEmpty()) {
            w.start("Checksum");
            ObjectHeaders.checksumElements(w, checksums);
            w.element("ChecksumType", ObjectHeaders.checksumType(info)).end();
        }
        if (wanted.contains("ObjectParts") && info.partCount() > 0) {
            objectParts(w, info, r);
        }
        if (wanted.contains("StorageClass")) {
            w.element("StorageClass", "STANDARD");
        }
        if (wanted.contains("ObjectSize")) {
            w.element("ObjectSize", info.size());
        }
        return ObjectHeaders.versionId(S3Response.xml(200, w.toBytes())
                .header("Last-Modified", ObjectHeaders.httpDate(info.lastModified())), info);
    }

    /** One page of the object's parts; the SDKs' TotalPartsCount travels as PartsCount. */
    private static void objectParts(XmlResponseWriter w, ObjectInfo info, S3Request r) {
        int max = headerNumber(r, "x-amz-max-parts", MAX_PARTS);
        int marker = headerNumber(r, "x-amz-part-number-marker", 0);
        int first = Math.min(marker, info.partCount()); // index of the first part listed
        int end = (int) Math.min((long) first + Math.min(max, MAX_PARTS), info.partCount());
        boolean truncated = end < info.partCount();
        w.start("ObjectParts").element("PartsCount", info.partCount()).element("PartNumberMarker", marker)
                .element("NextPartNumberMarker", end > first ? end : marker).element("MaxParts", max)
                .element("IsTruncated", truncated);
        for (int i = first; i < end; i++) {
            w.start("Part").element("PartNumber", i + 1).element("Size", info.partSizes().get(i));
            ObjectHeaders.checksumElements(w, ObjectHeaders.checksumsOf(info, i + 1));
            w.end();
        }
        w.end();
    }

    private static int headerNumber(S3Request r, String name, int absent) {
        String v = r.header(name);
        if (v == null) {
            return absent;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid " + name + " header: " + v);
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
