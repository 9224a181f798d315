package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectPage;

/**
 * ListObjectVersions on a bucket that never had versioning, as S3 answers it: each object is its one version, with
 * version id {@code null}, the latest; no delete markers. prefix, delimiter, key-marker, version-id-marker (only
 * {@code null}, and only with a key-marker), max-keys, encoding-type. Tools empty buckets this way (boto3's
 * {@code bucket.object_versions.delete()}, Terraform's force_destroy).
 */
public final class ListObjectVersionsHandler implements S3ActionHandler {
    /** The version id S3 gives objects written while versioning was never enabled. */
    public static final String NULL_VERSION = "null";

    private final Coffer coffer;

    public ListObjectVersionsHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) {
        String prefix = ListingParams.opt(r.queryParam("prefix"));
        String delimiter = ListingParams.opt(r.queryParam("delimiter"));
        String keyMarker = ListingParams.opt(r.queryParam("key-marker"));
        String versionIdMarker = ListingParams.opt(r.queryParam("version-id-marker"));
        if (versionIdMarker != null && keyMarker == null) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "A version-id marker cannot be specified without a key"
                    + " marker.");
        }
        if (versionIdMarker != null && !versionIdMarker.equals(NULL_VERSION)) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid version id specified");
        }
        int maxKeys = ListingParams.limit(r, "max-keys", 1000);
        ListingParams.urlEncoding(r);
        // the only version of key-marker is null, so the listing resumes after key-marker whatever the version marker
        ObjectPage page = ListingParams.page(coffer, r, prefix, delimiter, keyMarker, maxKeys);
        boolean url = ListingParams.urlEncoding(r, page, prefix, delimiter, keyMarker);
        XmlResponseWriter w = XmlResponseWriter.document("ListVersionsResult");
        w.element("Name", r.bucket())
                .element("Prefix", prefix == null ? "" : ListingParams.encode(prefix, url))
                .element("KeyMarker", keyMarker == null ? "" : ListingParams.encode(keyMarker, url))
                .element("VersionIdMarker", versionIdMarker == null ? "" : versionIdMarker)
                .element("MaxKeys", maxKeys)
                .element("Delimiter", ListingParams.encode(delimiter, url))
                .element("IsTruncated", page.truncated());
        if (page.truncated()) {
            w.element("NextKeyMarker", ListingParams.encode(page.nextAfter(), url))
                    .element("NextVersionIdMarker", NULL_VERSION);
        }
        if (url) {
            w.element("EncodingType", "url");
        }
        ListingParams.writeEntries(w, page, "Version", url, r.owner());
        return S3Response.xml(200, w.toBytes());
    }
}
