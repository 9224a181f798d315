package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.ExpirationHeader;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.s3.sse.ServerSideEncryption;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CompletedPart;
import io.coffer.sdk.ETags;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.checksum.ChecksumAlgorithm;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * CompleteMultipartUpload: parses the part list (at most 10000 parts) and lets the engine check order
 * (InvalidPartOrder), existence, ETags and part checksums (InvalidPart), sizes (EntityTooSmall) and the object's
 * checksum in x-amz-checksum-* against the one made of the parts' (BadDigest). A repeat of a Complete that
 * succeeded (a client's retry) gets the same answer while the object it made is the key's current version.
 */
public final class CompleteMultipartUploadHandler implements S3ActionHandler {
    private static final int MAX_PARTS = 10000;
    /**
     * Room for 10,000 parts each naming all it may (ETag, PartNumber and the five checksums, SHA-256's the longest:
     * about 450 bytes with indentation), with margin: 8 elements and 8 MiB at most.
     */
    private static final XmlRequestReader XML = new XmlRequestReader(8 * 1024 * 1024, 8 * MAX_PARTS + 16);
    private final Coffer coffer;

    public CompleteMultipartUploadHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        String uploadId = PartNumbers.uploadId(r);
        XmlElement root = XML.read(r.body(), "CompleteMultipartUpload");
        List<CompletedPart> parts = new ArrayList<>();
        for (XmlElement p : root.all("Part")) {
            String number = p.childText("PartNumber");
            String etag = p.childText("ETag");
            if (number == null || etag == null) {
                throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            }
            int n;
            try {
                n = Integer.parseInt(number.trim());
            } catch (NumberFormatException e) {
                throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            }
            if (n < 1 || n > MAX_PARTS) {
                throw new S3Exception(S3ErrorCode.INVALID_PART);
            }
            parts.add(new CompletedPart(n, ETags.unquote(etag), partChecksums(p)));
        }
        if (parts.isEmpty()) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML, "You must specify at least one part");
        }
        ObjectInfo info = coffer.completeMultipartUpload(r.bucketRecord(), r.key(), uploadId, parts,
                PutObjectHandler.precondition(r), ObjectHeaders.checksumHeaders(r));
        String host = r.header("host");
        XmlResponseWriter w = XmlResponseWriter.document("CompleteMultipartUploadResult")
                .element("Location", (host == null ? "" : "http://" + host) + "/" + r.bucket() + "/" + r.key())
                .element("Bucket", r.bucket())
                .element("Key", r.key())
                .element("ETag", ObjectHeaders.quote(info.etag()));
        Map<String, String> checksums = info.attributes().checksums();
        if (!checksums.isEmpty()) {
            ObjectHeaders.checksumElements(w, checksums);
            w.element("ChecksumType", ObjectHeaders.checksumType(info));
        }
        S3Response resp = ObjectHeaders.versionId(S3Response.xml(200, w.toBytes()), info);
        ExpirationHeader.write(resp, coffer, r.bucketRecord(), info);
        // an object under a keyring key says so, as S3's answer does
        return ServerSideEncryption.echoStored(resp, info.attributes());
    }

    /** The part's checksums the request names ({@code ChecksumCRC32} ...), by algorithm name. */
    private static Map<String, String> partChecksums(XmlElement part) {
        Map<String, String> out = new TreeMap<>();
        for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
            String v = part.childText("Checksum" + a.name());
            if (v != null) {
                out.put(a.name(), v.trim());
            }
        }
        return out;
    }
}
