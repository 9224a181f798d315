package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.FeatureHeaders;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import io.coffer.gateway.xml.XmlResponseWriter;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * The {@code ServerSideEncryptionConfiguration} of Put/GetBucketEncryption. Coffer encrypts every object with AES-256
 * under keys it manages (S3's SSE-S3), so the one configuration a bucket can have is one {@code Rule} whose
 * {@code ApplyServerSideEncryptionByDefault} names {@code AES256}, with its {@code BucketKeyEnabled} flag kept as sent
 * (it changes nothing for SSE-S3, on S3 as here). {@code aws:kms} and {@code aws:kms:dsse} are NotImplemented (Coffer
 * has no KMS to offer); anything else that is not that document is MalformedXML, as S3 answers for a document that does
 * not validate against its schema. Content-MD5 is checked here, x-amz-checksum-* by the body stream.
 */
final class BucketEncryptionXml {
    /** The name of a bucket's encryption configuration among its configuration documents. */
    static final String BUCKET_CONFIG = "encryption";
    private static final Set<String> KMS_ALGORITHMS = Set.of("aws:kms", "aws:kms:dsse");
    private static final Set<String> RULE_ELEMENTS = Set.of("ApplyServerSideEncryptionByDefault", "BucketKeyEnabled",
            "BlockedEncryptionTypes");
    private static final Set<String> DEFAULT_ELEMENTS = Set.of("SSEAlgorithm", "KMSMasterKeyID");
    /** The document is a handful of elements; 16 KiB and 64 elements leave room for whitespace and namespaces. */
    private static final XmlRequestReader XML = new XmlRequestReader(16 * 1024, 64);

    private BucketEncryptionXml() {
    }

    /**
     * Reads and checks the request's configuration; returns the document to store (AES256 with the request's
     * BucketKeyEnabled).
     */
    static byte[] read(S3Request r) throws IOException {
        byte[] body = XML.readBytes(r.body());
        ObjectHeaders.checkMd5(ObjectHeaders.contentMd5(r), body);
        XmlElement root = XML.parse(body, "ServerSideEncryptionConfiguration");
        List<XmlElement> rules = root.all("Rule");
        if (rules.size() != 1 || root.children().size() != 1) {
            throw malformed();
        }
        XmlElement rule = rules.get(0);
        for (XmlElement e : rule.children()) {
            if (!RULE_ELEMENTS.contains(e.name())) {
                throw malformed();
            }
        }
        List<XmlElement> defaults = rule.all("ApplyServerSideEncryptionByDefault");
        if (defaults.size() != 1 || rule.all("BucketKeyEnabled").size() > 1) {
            throw malformed();
        }
        checkDefault(defaults.get(0));
        if (!rule.all("BlockedEncryptionTypes").isEmpty()) {
            throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "BlockedEncryptionTypes: not offered by this gateway"
                    + " (it refuses SSE-C on every request anyway).");
        }
        return write(bucketKeyEnabled(rule.childText("BucketKeyEnabled")));
    }

    private static void checkDefault(XmlElement byDefault) {
        for (XmlElement e : byDefault.children()) {
            if (!DEFAULT_ELEMENTS.contains(e.name())) {
                throw malformed();
            }
        }
        List<XmlElement> algorithms = byDefault.all("SSEAlgorithm");
        if (algorithms.size() != 1 || byDefault.all("KMSMasterKeyID").size() > 1) {
            throw malformed();
        }
        String algorithm = algorithms.get(0).text().trim();
        if (KMS_ALGORITHMS.contains(algorithm)) {
            throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "Default encryption with " + algorithm
                    + ": not offered by this gateway (it has no KMS); every object is encrypted with "
                    + FeatureHeaders.SSE_AES256 + " (SSE-S3).");
        }
        if (!algorithm.equals(FeatureHeaders.SSE_AES256)) {
            throw malformed();
        }
        if (byDefault.childText("KMSMasterKeyID") != null) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "a KMSMasterKeyID is not applicable if the default"
                    + " sse algorithm is not aws:kms or aws:kms:dsse");
        }
    }

    private static boolean bucketKeyEnabled(String text) {
        if (text == null) {
            return false;
        }
        return switch (text.trim()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw malformed();
        };
    }

    /** What a bucket without a configuration reports: SSE-S3, as S3 answers for every bucket since 2023. */
    static byte[] defaultConfiguration() {
        return write(false);
    }

    private static byte[] write(boolean bucketKeyEnabled) {
        return XmlResponseWriter.document("ServerSideEncryptionConfiguration")
                .start("Rule").start("ApplyServerSideEncryptionByDefault")
                .element("SSEAlgorithm", FeatureHeaders.SSE_AES256).end()
                .element("BucketKeyEnabled", bucketKeyEnabled).end()
                .toBytes();
    }

    private static S3Exception malformed() {
        return new S3Exception(S3ErrorCode.MALFORMED_XML);
    }
}
