package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Bucket;
import io.coffer.sdk.Coffer;
import java.util.List;

/**
 * ListBuckets: the caller's own buckets only, in name order; prefix and bucket-region filter them; max-buckets
 * (1 to 10000) pages them, with a continuation-token as ListObjectsV2's (the last name returned); without max-buckets
 * every bucket is returned, as S3 does.
 */
public final class ListBucketsHandler implements S3ActionHandler {
    private static final int MAX_BUCKETS = 10_000;

    private final Coffer coffer;

    public ListBucketsHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        String prefix = ListingParams.opt(r.queryParam("prefix"));
        String region = ListingParams.opt(r.queryParam("bucket-region"));
        String token = ListingParams.opt(r.queryParam("continuation-token"));
        String after = token == null ? null : ListObjectsV2Handler.decodeToken(token);
        int max = Integer.MAX_VALUE;
        if (r.queryParam("max-buckets") != null) {
            max = ListingParams.limit(r, "max-buckets", MAX_BUCKETS);
            if (max < 1) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "max-buckets must be between 1 and 10000");
            }
        }
        List<Bucket> matching = coffer.listBuckets(r.owner()).stream()
                .filter(b -> after == null || b.name().compareTo(after) > 0)
                .filter(b -> prefix == null || b.name().startsWith(prefix))
                .filter(b -> region == null || region.equals(b.region()))
                .toList();
        List<Bucket> page = matching.subList(0, Math.min(max, matching.size()));
        XmlResponseWriter w = XmlResponseWriter.document("ListAllMyBucketsResult");
        w.start("Owner").element("ID", r.owner()).element("DisplayName", r.owner()).end();
        w.start("Buckets");
        for (Bucket b : page) {
            w.start("Bucket").element("Name", b.name()).element("CreationDate", b.created())
                    .element("BucketRegion", b.region()).end();
        }
        w.end();
        if (page.size() < matching.size()) {
            w.element("ContinuationToken", ListObjectsV2Handler.encodeToken(page.get(page.size() - 1).name()));
        }
        w.element("Prefix", prefix);
        return S3Response.xml(200, w.toBytes());
    }
}
