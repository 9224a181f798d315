package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.TagSets;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code Tagging} document of Put/GetObjectTagging and Put/GetBucketTagging: one {@code TagSet} of {@code Tag}s,
 * each with one {@code Key} and at most one {@code Value}. Content-MD5 is checked here, x-amz-checksum-* by the body
 * stream.
 */
final class TagSetXml {
    /** The name of a bucket's tag set among its configuration documents (stored as this class writes it). */
    static final String BUCKET_CONFIG = "tagging";
    /** A bucket's 50 tags of at most 128 + 256 characters fit in 64 KiB with room to spare. */
    private static final XmlRequestReader XML = new XmlRequestReader(64 * 1024, 4 * TagSets.MAX_BUCKET_TAGS + 16);

    private TagSetXml() {
    }

    /** The tags of the request's document, in order and unchecked (the sdk's {@link TagSets} checks them). */
    static List<TagSets.Tag> read(S3Request r) throws IOException {
        byte[] body = XML.readBytes(r.body());
        ObjectHeaders.checkMd5(ObjectHeaders.contentMd5(r), body);
        XmlElement tagging = XML.parse(body, "Tagging");
        List<XmlElement> sets = tagging.all("TagSet");
        if (sets.size() != 1) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        List<TagSets.Tag> tags = new ArrayList<>();
        for (XmlElement tag : sets.get(0).all("Tag")) {
            if (tag.all("Key").size() != 1 || tag.all("Value").size() > 1) {
                throw new S3Exception(S3ErrorCode.MALFORMED_XML);
            }
            String value = tag.childText("Value");
            tags.add(new TagSets.Tag(tag.childText("Key"), value == null ? "" : value));
        }
        return tags;
    }

    /** The document that lists {@code tags}. */
    static byte[] write(Map<String, String> tags) {
        XmlResponseWriter w = XmlResponseWriter.document("Tagging").start("TagSet");
        for (Map.Entry<String, String> t : tags.entrySet()) {
            w.start("Tag").element("Key", t.getKey()).element("Value", t.getValue()).end();
        }
        return w.end().toBytes();
    }
}
