package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import io.coffer.sdk.Coffer;
import java.io.IOException;

/**
 * PutObjectTagging with an empty TagSet: Coffer objects carry no tags (a write that asks for some is refused), so the
 * one tag set it can store truthfully is the empty one, which clears an object's tags in S3
 * ({@code aws s3api put-object-tagging --tagging 'TagSet=[]'}). A set with any tag is 501 NotImplemented and changes
 * nothing, like a PUT with {@code x-amz-tagging}. Content-MD5 is checked here, x-amz-checksum-* by the body stream.
 */
public final class PutObjectTaggingHandler implements S3ActionHandler {
    /** S3 allows 10 tags of at most 128 + 256 characters; 64 KiB is ample for any valid document. */
    private static final XmlRequestReader XML = new XmlRequestReader(64 * 1024, 64);
    private final Coffer coffer;

    public PutObjectTaggingHandler(Coffer coffer) {
        this.coffer = coffer;
    }

    @Override
    public S3Response handle(S3Request r) throws IOException {
        byte[] body = XML.readBytes(r.body());
        ObjectHeaders.checkMd5(ObjectHeaders.contentMd5(r), body);
        XmlElement tagging = XML.parse(body, "Tagging");
        if (tagging.all("TagSet").size() != 1) {
            throw new S3Exception(S3ErrorCode.MALFORMED_XML);
        }
        if (!tagging.all("TagSet").get(0).all("Tag").isEmpty()) {
            throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "Coffer does not store object tags; only an empty "
                    + "TagSet can be put.");
        }
        coffer.headObject(r.bucket(), r.key());
        return S3Response.empty(200);
    }
}
