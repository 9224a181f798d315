package io.coffer.gateway.s3;

import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.meta.ObjectPage;
import io.coffer.sdk.meta.ObjectSummary;
import java.util.List;

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
        boolean url = ListingParams.urlEncoding(r);
        ObjectPage page = maxKeys == 0 ? new ObjectPage(List.of(), List.of(), false, null)
                : coffer.listObjects(r.bucket(), prefix, delimiter, marker, maxKeys);
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
        for (ObjectSummary o : page.objects()) {
            w.start("Contents").element("Key", ListingParams.encode(o.key(), url))
                    .element("LastModified", o.lastModified())
                    .element("ETag", ObjectHeaders.quote(o.etag()))
                    .element("Size", o.size())
                    .start("Owner").element("ID", r.owner()).element("DisplayName", r.owner()).end()
                    .element("StorageClass", "STANDARD").end();
        }
        for (String p : page.commonPrefixes()) {
            w.start("CommonPrefixes").element("Prefix", ListingParams.encode(p, url)).end();
        }
        return S3Response.xml(200, w.toBytes());
    }
}
