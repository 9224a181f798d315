package io.coffer.gateway.s3;

import io.coffer.gateway.auth.SigV4;
import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectPage;
import io.coffer.sdk.ObjectSummary;
import java.util.List;

/**
 * What the object listings (ListObjects v1 and v2, ListObjectVersions) share: max-keys style limits, encoding-type=url,
 * the page read and the entries written.
 */
final class ListingParams {
    private ListingParams() {
    }

    /** A non-negative integer parameter capped at {@code cap}; InvalidArgument when malformed or negative. */
    static int limit(S3Request r, String name, int cap) {
        String v = r.queryParam(name);
        if (v == null) {
            return cap;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 0) {
                throw new NumberFormatException(v);
            }
            return Math.min(n, cap);
        } catch (NumberFormatException e) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Provided " + name + " not an integer or within"
                    + " integer range");
        }
    }

    /** True for encoding-type=url; InvalidArgument for any other value. */
    static boolean urlEncoding(S3Request r) {
        String v = r.queryParam("encoding-type");
        if (v == null) {
            return false;
        }
        if (!v.equals("url")) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid Encoding Method specified in Request");
        }
        return true;
    }

    /**
     * Whether the listing is written URL-encoded (with {@code <EncodingType>url</EncodingType>}): when the request
     * asked for it, and also when a name on the page or echoed from the request has a character an XML 1.0 document
     * cannot carry exactly (a control character, CR, ...). The document stays well-formed, and a client that reads
     * EncodingType (the AWS SDKs do) decodes each name back to the stored key.
     */
    static boolean urlEncoding(S3Request r, ObjectPage page, String... echoed) {
        if (urlEncoding(r)) {
            return true;
        }
        for (String v : echoed) {
            if (v != null && !XmlResponseWriter.carries(v)) {
                return true;
            }
        }
        if (page.nextAfter() != null && !XmlResponseWriter.carries(page.nextAfter())) {
            return true;
        }
        for (ObjectSummary o : page.objects()) {
            if (!XmlResponseWriter.carries(o.key())) {
                return true;
            }
        }
        for (String p : page.commonPrefixes()) {
            if (!XmlResponseWriter.carries(p)) {
                return true;
            }
        }
        return false;
    }

    /** Null-safe empty-to-null for optional parameters. */
    static String opt(String v) {
        return v == null || v.isEmpty() ? null : v;
    }

    static String encode(String v, boolean url) {
        return v == null || !url ? v : SigV4.uriEncode(v, true);
    }

    /** A page of at most {@code maxKeys} objects after {@code after}; max-keys 0 asks for none and reads nothing. */
    static ObjectPage page(Coffer coffer, S3Request r, String prefix, String delimiter, String after, int maxKeys) {
        return maxKeys == 0 ? new ObjectPage(List.of(), List.of(), false, null)
                : coffer.listObjects(r.bucket(), prefix, delimiter, after, maxKeys);
    }

    /**
     * The page's entries: each object as {@code element} (Contents), with Owner unless {@code owner} is null, then the
     * common prefixes.
     */
    static void writeEntries(XmlResponseWriter w, ObjectPage page, String element, boolean url, String owner) {
        for (ObjectSummary o : page.objects()) {
            w.start(element).element("Key", encode(o.key(), url));
            w.element("LastModified", o.lastModified())
                    .element("ETag", ObjectHeaders.quote(o.etag()))
                    .element("Size", o.size());
            if (owner != null) {
                w.start("Owner").element("ID", owner).element("DisplayName", owner).end();
            }
            w.element("StorageClass", "STANDARD").end();
        }
        for (String p : page.commonPrefixes()) {
            w.start("CommonPrefixes").element("Prefix", encode(p, url)).end();
        }
    }
}
