package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectPage;
import io.coffer.sdk.ObjectVersion;
import io.coffer.sdk.VersionPage;
import java.util.ArrayList;
import java.util.List;

/**
 * ListObjectVersions: versions ({@code Version}) and delete markers ({@code DeleteMarker}) by key, each key's newest
 * first, the current one {@code IsLatest}; objects written while the bucket was unversioned or suspended have version
 * id {@code null}. prefix, delimiter, key-marker, version-id-marker (only with a key-marker), max-keys, encoding-type.
 * Tools empty buckets this way (boto3's {@code bucket.object_versions.delete()}, Terraform's force_destroy).
 */
public final class ListObjectVersionsHandler implements S3ActionHandler {
    /** The version id S3 gives objects written while versioning was not enabled. */
    public static final String NULL_VERSION = BucketVersioning.NULL_VERSION;

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
        int maxKeys = ListingParams.limit(r, "max-keys", 1000);
        ListingParams.urlEncoding(r);
        VersionPage page = maxKeys == 0 ? new VersionPage(List.of(), List.of(), false, null, null)
                : coffer.listObjectVersions(r.bucket(), prefix, delimiter, keyMarker, versionIdMarker, maxKeys);
        List<String> names = new ArrayList<>(List.of(prefix == null ? "" : prefix,
                delimiter == null ? "" : delimiter, keyMarker == null ? "" : keyMarker));
        page.versions().forEach(v -> names.add(v.key()));
        names.addAll(page.commonPrefixes());
        if (page.nextKeyMarker() != null) {
            names.add(page.nextKeyMarker());
        }
        boolean url = ListingParams.urlEncoding(r, new ObjectPage(List.of(), List.of(), false, null),
                names.toArray(String[]::new));
        XmlResponseWriter w = XmlResponseWriter.document("ListVersionsResult");
        w.element("Name", r.bucket())
                .element("Prefix", prefix == null ? "" : ListingParams.encode(prefix, url))
                .element("KeyMarker", keyMarker == null ? "" : ListingParams.encode(keyMarker, url))
                .element("VersionIdMarker", versionIdMarker == null ? "" : versionIdMarker)
                .element("MaxKeys", maxKeys)
                .element("Delimiter", ListingParams.encode(delimiter, url))
                .element("IsTruncated", page.truncated());
        if (page.truncated()) {
            w.element("NextKeyMarker", ListingParams.encode(page.nextKeyMarker(), url))
                    .element("NextVersionIdMarker", page.nextVersionIdMarker());
        }
        if (url) {
            w.element("EncodingType", "url");
        }
        for (ObjectVersion v : page.versions()) {
            w.start(v.deleteMarker() ? "DeleteMarker" : "Version")
                    .element("Key", ListingParams.encode(v.key(), url))
                    .element("VersionId", v.versionId())
                    .element("IsLatest", v.latest())
                    .element("LastModified", v.lastModified());
            if (!v.deleteMarker()) {
                w.element("ETag", ObjectHeaders.quote(v.etag())).element("Size", v.size());
            }
            w.start("Owner").element("ID", r.owner()).element("DisplayName", r.owner()).end();
            if (!v.deleteMarker()) {
                w.element("StorageClass", "STANDARD");
            }
            w.end();
        }
        for (String p : page.commonPrefixes()) {
            w.start("CommonPrefixes").element("Prefix", ListingParams.encode(p, url)).end();
        }
        return S3Response.xml(200, w.toBytes());
    }
}
