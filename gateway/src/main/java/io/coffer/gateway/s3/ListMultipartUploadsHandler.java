package io.coffer.gateway.s3;

import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.UploadPage;
import io.coffer.sdk.UploadRecord;

/** ListMultipartUploads: prefix, delimiter, key-marker, upload-id-marker, max-uploads, encoding-type. */
public final class ListMultipartUploadsHandler implements S3ActionHandler {
    private final Coffer coffer;

    public ListMultipartUploadsHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        String prefix = ListingParams.opt(r.queryParam("prefix"));
        String delimiter = ListingParams.opt(r.queryParam("delimiter"));
        String keyMarker = ListingParams.opt(r.queryParam("key-marker"));
        String uploadIdMarker = ListingParams.opt(r.queryParam("upload-id-marker"));
        int maxUploads = ListingParams.limit(r, "max-uploads", 1000);
        boolean url = ListingParams.urlEncoding(r);
        UploadPage page = coffer.listMultipartUploads(r.bucketRecord(), prefix, delimiter, keyMarker, uploadIdMarker,
                maxUploads);
        XmlResponseWriter w = XmlResponseWriter.document("ListMultipartUploadsResult");
        w.element("Bucket", r.bucket())
                .element("KeyMarker", keyMarker == null ? "" : ListingParams.encode(keyMarker, url))
                .element("UploadIdMarker", uploadIdMarker == null ? "" : uploadIdMarker)
                .element("NextKeyMarker", ListingParams.encode(page.nextKeyMarker(), url))
                .element("NextUploadIdMarker", page.nextUploadIdMarker())
                .element("Delimiter", ListingParams.encode(delimiter, url))
                .element("Prefix", prefix == null ? "" : ListingParams.encode(prefix, url))
                .element("MaxUploads", maxUploads)
                .element("IsTruncated", page.truncated());
        if (url) {
            w.element("EncodingType", "url");
        }
        for (UploadRecord u : page.uploads()) {
            w.start("Upload").element("Key", ListingParams.encode(u.key(), url)).element("UploadId", u.uploadId())
                    .start("Initiator").element("ID", u.owner()).element("DisplayName", u.owner()).end()
                    .start("Owner").element("ID", u.owner()).element("DisplayName", u.owner()).end()
                    .element("StorageClass", "STANDARD")
                    .element("Initiated", u.initiated()).end();
        }
        for (String p : page.commonPrefixes()) {
            w.start("CommonPrefixes").element("Prefix", ListingParams.encode(p, url)).end();
        }
        return S3Response.xml(200, w.toBytes());
    }
}
