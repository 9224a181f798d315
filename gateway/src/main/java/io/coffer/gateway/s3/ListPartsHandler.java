package io.coffer.gateway.s3;

import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.PartInfo;
import io.coffer.sdk.PartListing;

/** ListParts: part-number-marker and max-parts paging. */
public final class ListPartsHandler implements S3ActionHandler {
    private final Coffer coffer;

    public ListPartsHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        String uploadId = PartNumbers.uploadId(r);
        int maxParts = ListingParams.limit(r, "max-parts", 1000);
        int marker = r.queryParam("part-number-marker") == null ? 0
                : ListingParams.limit(r, "part-number-marker", 10000);
        PartListing listing = coffer.listParts(r.bucketRecord(), r.key(), uploadId, marker, maxParts);
        XmlResponseWriter w = XmlResponseWriter.document("ListPartsResult");
        w.element("Bucket", r.bucket()).element("Key", r.key()).element("UploadId", uploadId)
                .start("Initiator").element("ID", r.owner()).element("DisplayName", r.owner()).end()
                .start("Owner").element("ID", r.owner()).element("DisplayName", r.owner()).end()
                .element("StorageClass", "STANDARD")
                .element("PartNumberMarker", marker)
                .element("NextPartNumberMarker", listing.nextPartNumberMarker())
                .element("MaxParts", maxParts)
                .element("IsTruncated", listing.truncated());
        for (PartInfo p : listing.parts()) {
            w.start("Part").element("PartNumber", p.partNumber()).element("LastModified", p.lastModified())
                    .element("ETag", ObjectHeaders.quote(p.etag())).element("Size", p.size());
            ObjectHeaders.checksumElements(w, p.checksums());
            w.end();
        }
        return S3Response.xml(200, w.toBytes());
    }
}
