package io.coffer.gateway.s3.acl;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import io.coffer.gateway.xml.XmlResponseWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * S3's Block Public Access flags. Without bucket policies (Coffer has none) two of them act: BlockPublicAcls refuses
 * a request that sets a public ACL, IgnorePublicAcls makes public grants grant nothing. BlockPublicPolicy and
 * RestrictPublicBuckets are stored and reported; they govern policies only, so they change nothing here. Stored as
 * four {@code 0}/{@code 1} characters in the bucket record's {@link #BUCKET_CONFIG} document.
 */
public record PublicAccessBlock(boolean blockPublicAcls, boolean ignorePublicAcls, boolean blockPublicPolicy,
                                boolean restrictPublicBuckets) {
    public static final String BUCKET_CONFIG = "publicAccessBlock";
    public static final PublicAccessBlock ALL = new PublicAccessBlock(true, true, true, true);
    public static final PublicAccessBlock NONE = new PublicAccessBlock(false, false, false, false);
    private static final XmlRequestReader XML = new XmlRequestReader(4 * 1024, 16);

    /** Each flag set in either: S3 applies the account's and the bucket's settings together. */
    public PublicAccessBlock or(PublicAccessBlock o) {
        return new PublicAccessBlock(blockPublicAcls || o.blockPublicAcls, ignorePublicAcls || o.ignorePublicAcls,
                blockPublicPolicy || o.blockPublicPolicy, restrictPublicBuckets || o.restrictPublicBuckets);
    }

    public byte[] encode() {
        return ("" + bit(blockPublicAcls) + bit(ignorePublicAcls) + bit(blockPublicPolicy)
                + bit(restrictPublicBuckets)).getBytes(StandardCharsets.US_ASCII);
    }

    public static PublicAccessBlock decode(byte[] b) {
        String s = new String(b, StandardCharsets.US_ASCII);
        if (!s.matches("[01]{4}")) {
            throw new IllegalStateException("malformed stored public access block");
        }
        return new PublicAccessBlock(s.charAt(0) == '1', s.charAt(1) == '1', s.charAt(2) == '1', s.charAt(3) == '1');
    }

    public byte[] toXml() {
        return XmlResponseWriter.document("PublicAccessBlockConfiguration")
                .element("BlockPublicAcls", Boolean.toString(blockPublicAcls))
                .element("IgnorePublicAcls", Boolean.toString(ignorePublicAcls))
                .element("BlockPublicPolicy", Boolean.toString(blockPublicPolicy))
                .element("RestrictPublicBuckets", Boolean.toString(restrictPublicBuckets))
                .toBytes();
    }

    /**
     * A {@code PublicAccessBlockConfiguration} body; a missing flag is false, a value other than true/false
     * MalformedXML.
     */
    public static PublicAccessBlock read(InputStream body) throws IOException {
        XmlElement c = XML.read(body, "PublicAccessBlockConfiguration");
        return new PublicAccessBlock(flag(c, "BlockPublicAcls"), flag(c, "IgnorePublicAcls"),
                flag(c, "BlockPublicPolicy"), flag(c, "RestrictPublicBuckets"));
    }

    private static boolean flag(XmlElement c, String name) {
        String v = c.childText(name);
        if (v == null) {
            return false;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new S3Exception(S3ErrorCode.MALFORMED_XML, name + " must be true or false.");
        };
    }

    private static char bit(boolean b) {
        return b ? '1' : '0';
    }
}
