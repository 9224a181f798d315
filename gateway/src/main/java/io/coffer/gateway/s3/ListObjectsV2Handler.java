package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectPage;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * ListObjectsV2: prefix, delimiter, max-keys, start-after, continuation-token, encoding-type, fetch-owner. The
 * continuation token is opaque to clients: base64url of the last key or common prefix of the previous page. An empty
 * continuation-token is no token: the listing starts at the beginning and echoes the empty ContinuationToken.
 */
public final class ListObjectsV2Handler implements S3ActionHandler {
    private final Coffer coffer;

    public ListObjectsV2Handler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        String prefix = ListingParams.opt(r.queryParam("prefix"));
        String delimiter = ListingParams.opt(r.queryParam("delimiter"));
        String startAfter = ListingParams.opt(r.queryParam("start-after"));
        String token = r.queryParam("continuation-token");
        int maxKeys = ListingParams.limit(r, "max-keys", 1000);
        ListingParams.urlEncoding(r);
        boolean fetchOwner = "true".equals(r.queryParam("fetch-owner"));
        String after = startAfter;
        if (token != null && !token.isEmpty()) {
            after = decodeToken(token);
            if (startAfter != null && startAfter.compareTo(after) > 0) {
                after = startAfter;
            }
        }
        ObjectPage page = ListingParams.page(coffer, r, prefix, delimiter, after, maxKeys);
        boolean url = ListingParams.urlEncoding(r, page, prefix, delimiter, startAfter);
        XmlResponseWriter w = XmlResponseWriter.document("ListBucketResult");
        w.element("Name", r.bucket())
                .element("Prefix", prefix == null ? "" : ListingParams.encode(prefix, url))
                .element("StartAfter", ListingParams.encode(startAfter, url))
                .element("KeyCount", page.objects().size() + page.commonPrefixes().size())
                .element("MaxKeys", maxKeys)
                .element("Delimiter", ListingParams.encode(delimiter, url))
                .element("IsTruncated", page.truncated())
                .element("ContinuationToken", token);
        if (page.truncated()) {
            w.element("NextContinuationToken", encodeToken(page.nextAfter()));
        }
        if (url) {
            w.element("EncodingType", "url");
        }
        ListingParams.writeEntries(w, page, "Contents", url, fetchOwner ? r.owner() : null);
        return S3Response.xml(200, w.toBytes());
    }

    static String encodeToken(String after) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(after.getBytes(StandardCharsets.UTF_8));
    }

    static String decodeToken(String token) {
        try {
            String after = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            if (after.isEmpty()) {
                throw new IllegalArgumentException("empty token");
            }
            return after;
        } catch (IllegalArgumentException e) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "The continuation token provided is incorrect");
        }
    }
}
