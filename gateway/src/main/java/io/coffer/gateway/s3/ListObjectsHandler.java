package io.coffer.gateway.s3;

import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectPage;

/** ListObjects (version 1): prefix, delimiter, marker, max-keys, encoding-type. */
public final class ListObjectsHandler implements S3ActionHandler {
    private final Coffer coffer;

    public ListObjectsHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        String prefix = ListingParams.opt(r.queryParam("prefix"));
        String delimiter = ListingParams.opt(r.queryParam("delimiter"));
        String marker = ListingParams.opt(r.queryParam("marker"));
        int maxKeys = ListingParams.limit(r, "max-keys", 1000);
        ListingParams.urlEncoding(r);
        ObjectPage page = ListingParams.page(coffer, r, prefix, delimiter, marker, maxKeys);
        boolean url = ListingParams.urlEncoding(r, page, prefix, delimiter, marker);
        XmlResponseWriter w = XmlResponseWriter.document("ListBucketResult");
        w.element("Name", r.bucket())
                .element("Prefix", prefix == null ? "" : ListingParams.encode(prefix, url))
                .element("Marker", marker == null ? "" : ListingParams.encode(marker, url))
                .element("MaxKeys", maxKeys)
                .element("Delimiter", ListingParams.encode(delimiter, url))
                .element("IsTruncated", page.truncated());
        if (page.truncated()) {
            w.element("NextMarker", ListingParams.encode(page.nextAfter(), url));
        }
        if (url) {
            w.element("EncodingType", "url");
        }
        ListingParams.writeEntries(w, page, "Contents", url, r.owner());
        return S3Response.xml(200, w.toBytes());
    }
}
