package io.coffer.gateway.s3;

import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.meta.BucketRecord;

/** ListBuckets: the caller's own buckets only. */
public final class ListBucketsHandler implements S3ActionHandler {
    private final Coffer coffer;

    public ListBucketsHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        XmlResponseWriter w = XmlResponseWriter.document("ListAllMyBucketsResult");
        w.start("Owner").element("ID", r.owner()).element("DisplayName", r.owner()).end();
        w.start("Buckets");
        for (BucketRecord b : coffer.listBuckets(r.owner())) {
            w.start("Bucket").element("Name", b.name()).element("CreationDate", b.created())
                    .element("BucketRegion", b.region()).end();
        }
        w.end();
        return S3Response.xml(200, w.toBytes());
    }
}
