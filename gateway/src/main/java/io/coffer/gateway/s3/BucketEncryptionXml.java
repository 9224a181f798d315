package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.FeatureHeaders;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.s3.sse.KmsKeySource;
import io.coffer.gateway.s3.sse.ServerSideEncryption;
import io.coffer.gateway.xml.XmlElement;
import io.coffer.gateway.xml.XmlRequestReader;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.KmsKey;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * The {@code ServerSideEncryptionConfiguration} of Put/GetBucketEncryption. Coffer encrypts every object with AES-256
 * under keys it manages (S3's SSE-S3), so a bucket's configuration is one {@code Rule} whose
 * {@code ApplyServerSideEncryptionByDefault} names {@code AES256}, or {@code aws:kms} with an optional
 * {@code KMSMasterKeyID} the gateway's keyring holds (SSE-KMS: objects written without encryption headers are stored
 * under that key, {@code ServerSideEncryption}), with its {@code BucketKeyEnabled} flag kept as sent (it changes nothing
 * here). {@code aws:kms:dsse} is NotImplemented; anything else that is not that document is MalformedXML, as S3
 * answers for a document that does not validate against its schema. Content-MD5 is checked here, x-amz-checksum-* by
 * the body stream.
 */
public final class BucketEncryptionXml {
    /** The name of a bucket's encryption configuration among its configuration documents. */
    static final String BUCKET_CONFIG = "encryption";
    private static final String DSSE = "aws:kms:dsse";
    private static final Set<String> RULE_ELEMENTS = Set.of("ApplyServerSideEncryptionByDefault", "BucketKeyEnabled",
            "BlockedEncryptionTypes");
    private static final Set<String> DEFAULT_ELEMENTS = Set.of("SSEAlgorithm", "KMSMasterKeyID");
    /** The document is a handful of elements; 16 KiB and 64 elements leave room for whitespace and namespaces. */
    private static final XmlRequestReader XML = new XmlRequestReader(16 * 1024, 64);

    private BucketEncryptionXml() {
    }

    /**
     * Reads and checks the request's configuration; returns the document to store (AES256, or aws:kms with the
     * KMSMasterKeyID as sent, which {@code keyring} must hold or the KMS know enabled: 400 KMS.NotFoundException or
     * KMS.DisabledException, 501 without either; and the request's BucketKeyEnabled).
     */
    static byte[] read(S3Request r, KmsKeySource keyring) throws IOException {
        byte[] body = XML.readBytes(r.body());
        ObjectHeaders.checkMd5(ObjectHeaders.contentMd5(r), body);
        XmlElement rule = rule(XML.parse(body, "ServerSideEncryptionConfiguration"));
        String kmsKeyId = checkDefault(rule.all("ApplyServerSideEncryptionByDefault").get(0));
        if (!rule.all("BlockedEncryptionTypes").isEmpty()) {
            throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "BlockedEncryptionTypes: not offered by this gateway"
                    + " (it refuses SSE-C on every request anyway).");
        }
        boolean bucketKey = bucketKeyEnabled(rule.childText("BucketKeyEnabled"));
        if (kmsKeyId == null) {
            return write(FeatureHeaders.SSE_AES256, null, bucketKey);
        }
        // refused now rather than on every later PUT: the keyring (or the KMS) must have the key (or the default)
        keyring.checkWritable(kmsKeyId.isEmpty() ? null : kmsKeyId);
        return write(KmsKey.ALGORITHM, kmsKeyId.isEmpty() ? null : kmsKeyId, bucketKey);
    }

    /**
     * The SSE-KMS default of a stored configuration ({@link #BUCKET_CONFIG}), or null when it names {@code AES256}
     * (or does not read, which a stored document written by {@link #read} always does).
     */
    public static ServerSideEncryption.BucketKms kmsDefault(byte[] stored) {
        try {
            XmlElement rule = rule(XML.parse(stored, "ServerSideEncryptionConfiguration"));
            XmlElement byDefault = rule.all("ApplyServerSideEncryptionByDefault").get(0);
            String algorithm = byDefault.childText("SSEAlgorithm");
            if (algorithm == null || !algorithm.trim().equals(KmsKey.ALGORITHM)) {
                return null;
            }
            String keyId = byDefault.childText("KMSMasterKeyID");
            return new ServerSideEncryption.BucketKms(keyId == null ? null : keyId.trim(),
                    bucketKeyEnabled(rule.childText("BucketKeyEnabled")));
        } catch (S3Exception e) {
            return null;
        }
    }

    private static XmlElement rule(XmlElement root) {
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
        return rule;
    }

    /** Checks the default rule; returns its KMSMasterKeyID for aws:kms ("" when it names none), null for AES256. */
    private static String checkDefault(XmlElement byDefault) {
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
        String keyId = byDefault.childText("KMSMasterKeyID");
        if (algorithm.equals(DSSE)) {
            throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "Default encryption with " + algorithm
                    + ": not offered by this gateway (it offers AES256 and aws:kms).");
        }
        if (algorithm.equals(KmsKey.ALGORITHM)) {
            return keyId == null ? "" : keyId.trim();
        }
        if (!algorithm.equals(FeatureHeaders.SSE_AES256)) {
            throw malformed();
        }
        if (keyId != null) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "a KMSMasterKeyID is not applicable if the default"
                    + " sse algorithm is not aws:kms or aws:kms:dsse");
        }
        return null;
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
        return write(FeatureHeaders.SSE_AES256, null, false);
    }

    private static byte[] write(String algorithm, String kmsKeyId, boolean bucketKeyEnabled) {
        XmlResponseWriter w = XmlResponseWriter.document("ServerSideEncryptionConfiguration")
                .start("Rule").start("ApplyServerSideEncryptionByDefault")
                .element("SSEAlgorithm", algorithm);
        if (kmsKeyId != null) {
            w.element("KMSMasterKeyID", kmsKeyId);
        }
        return w.end().element("BucketKeyEnabled", bucketKeyEnabled).end().toBytes();
    }

    private static S3Exception malformed() {
        return new S3Exception(S3ErrorCode.MALFORMED_XML);
    }
}
