package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import java.io.IOException;
import java.util.Set;

/**
 * Reading the small XML documents of S3 Object Lock (ObjectLockConfiguration, Retention, LegalHold): the body is read
 * whole (a few KiB at most), checked against Content-MD5 when one is sent, and any element S3 does not define, or one
 * given twice, is MalformedXML.
 */
final class ObjectLockXml {
    private static final XmlRequestReader XML = new XmlRequestReader(4 * 1024, 16);

    private ObjectLockXml() {
    }

    static XmlElement read(S3Request r, String root) throws IOException {
        byte[] body = XML.readBytes(r.body());
        ObjectHeaders.checkMd5(ObjectHeaders.contentMd5(r), body);
        return XML.parse(body, root);
    }

    /** Checks that {@code e}'s children are among {@code allowed}, each at most once. */
    static void only(XmlElement e, Set<String> allowed) {
        for (XmlElement c : e.children()) {
            if (!allowed.contains(c.name()) || e.all(c.name()).size() > 1) {
                throw malformed();
            }
        }
    }

    /** The trimmed text of child {@code name}, or null. */
    static String text(XmlElement e, String name) {
        String v = e.childText(name);
        return v == null ? null : v.trim();
    }

    static S3Exception malformed() {
        return new S3Exception(S3ErrorCode.MALFORMED_XML);
    }
}
