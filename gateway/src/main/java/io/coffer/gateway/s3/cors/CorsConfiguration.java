package io.coffer.gateway.s3.cors;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import io.coffer.gateway.xml.XmlResponseWriter;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A bucket's CORS rules, read from and written as S3's {@code CORSConfiguration} document. Reading validates as S3
 * does: a document that is no {@code CORSConfiguration} of 1 to 100 {@code CORSRule}s, each with an
 * {@code AllowedMethod} and an {@code AllowedOrigin}, is MalformedXML; a method other than GET, PUT, POST, DELETE and
 * HEAD, or an origin or allowed header with more than one wildcard, is InvalidRequest. The bucket stores what
 * {@link #toXml} writes, which GetBucketCors returns and every CORS check reads back.
 */
public record CorsConfiguration(List<CorsRule> rules) {
    /** The name of a bucket's CORS rules among its configuration documents. */
    public static final String BUCKET_CONFIG = "cors";
    public static final int MAX_RULES = 100;
    private static final Set<String> METHODS = Set.of("GET", "PUT", "POST", "DELETE", "HEAD");
    /** S3 limits the document to 64 KB. */
    private static final int MAX_BYTES = 64 * 1024;
    private static final XmlRequestReader XML = new XmlRequestReader(MAX_BYTES, MAX_BYTES / 8);

    public CorsConfiguration {
        rules = List.copyOf(rules);
    }

    /** Reads the body of a PutBucketCors (or a stored document), validating it. */
    public static CorsConfiguration parse(byte[] xml) {
        XmlElement root = XML.parse(xml, "CORSConfiguration");
        List<XmlElement> ruleElements = root.all("CORSRule");
        if (ruleElements.isEmpty()) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        if (ruleElements.size() > MAX_RULES) {
            throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "The number of CORS rules should not exceed allowed"
                    + " limit of " + MAX_RULES + " rules.");
        }
        List<CorsRule> rules = new ArrayList<>();
        for (XmlElement e : ruleElements) {
            rules.add(rule(e));
        }
        return new CorsConfiguration(rules);
    }

    /** Reads the body of a PutBucketCors request, bounded as S3 bounds it. */
    public static byte[] readBody(InputStream body) throws IOException {
        return XML.readBytes(body);
    }

    private static CorsRule rule(XmlElement e) {
        List<String> methods = texts(e, "AllowedMethod");
        List<String> origins = texts(e, "AllowedOrigin");
        if (methods.isEmpty() || origins.isEmpty() || e.all("ID").size() > 1 || e.all("MaxAgeSeconds").size() > 1) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        for (String m : methods) {
            if (!METHODS.contains(m)) {
                throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "Found unsupported HTTP method in CORS config."
                        + " Unsupported method is " + m);
            }
        }
        for (String o : origins) {
            if (o.indexOf('*') != o.lastIndexOf('*')) {
                throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "AllowedOrigin \"" + o
                        + "\" can not have more than one wildcard.");
            }
        }
        List<String> headers = texts(e, "AllowedHeader");
        for (String h : headers) {
            if (h.indexOf('*') != h.lastIndexOf('*')) {
                throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "AllowedHeader \"" + h
                        + "\" can not have more than one wildcard.");
            }
        }
        int maxAge = -1;
        String age = e.childText("MaxAgeSeconds");
        if (age != null) {
            try {
                maxAge = Integer.parseInt(age.trim());
            } catch (NumberFormatException ex) {
                throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            }
            if (maxAge < 0) {
                throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            }
        }
        String id = e.childText("ID");
        if (id != null && id.length() > 255) {
            throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "The ID of a CORS rule can be at most 255 characters.");
        }
        return new CorsRule(id, origins, methods, headers, texts(e, "ExposeHeader"), maxAge);
    }

    private static List<String> texts(XmlElement parent, String name) {
        List<String> out = new ArrayList<>();
        for (XmlElement c : parent.all(name)) {
            String t = c.text() == null ? "" : c.text().trim();
            if (t.isEmpty()) {
                throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            }
            out.add(t);
        }
        return out;
    }

    /** The document GetBucketCors returns. */
    public byte[] toXml() {
        XmlResponseWriter w = XmlResponseWriter.document("CORSConfiguration");
        for (CorsRule r : rules) {
            w.start("CORSRule");
            if (r.id() != null) {
                w.element("ID", r.id());
            }
            r.allowedHeaders().forEach(h -> w.element("AllowedHeader", h));
            r.allowedMethods().forEach(m -> w.element("AllowedMethod", m));
            r.allowedOrigins().forEach(o -> w.element("AllowedOrigin", o));
            r.exposeHeaders().forEach(h -> w.element("ExposeHeader", h));
            if (r.maxAgeSeconds() >= 0) {
                w.element("MaxAgeSeconds", r.maxAgeSeconds());
            }
            w.end();
        }
        return w.toBytes();
    }
}
