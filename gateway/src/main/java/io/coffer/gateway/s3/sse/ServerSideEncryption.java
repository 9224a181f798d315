package io.coffer.gateway.s3.sse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.S3Request;
import io.coffer.gateway.s3.S3Response;
import io.coffer.sdk.CustomerKey;
import io.coffer.sdk.KmsKey;
import io.coffer.sdk.ObjectAttributes;
import io.coffer.sdk.ObjectKeyResolver;
import java.io.IOException;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;

/**
 * Which key an object request stores or reads under: a customer's (SSE-C, {@link CustomerKeyHeaders}) or a keyring's
 * (SSE-KMS, {@link KmsKeyring}: {@code x-amz-server-side-encryption: aws:kms}, the key id header or the keyring's
 * default, or the bucket's default encryption when it names {@code aws:kms} and the request names no encryption).
 * Reads need no header for an object under a keyring key: its key id is in its attributes (docs/S3-COMPATIBILITY.md,
 * "SSE-KMS").
 */
public final class ServerSideEncryption {
    public static final String SSE = KmsKey.SSE_HEADER;
    public static final String KEY_ID = KmsKey.KEY_ID_HEADER;
    public static final String CONTEXT = "x-amz-server-side-encryption-context";
    public static final String BUCKET_KEY = KmsKey.BUCKET_KEY_HEADER;
    /** S3's limit on an encryption context is 8 KiB of JSON; base64 of that is under 12 KiB. */
    private static final int MAX_CONTEXT = 12 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CustomerKeyHeaders customerKeys;
    private final KmsKeySource keyring;
    private final Function<S3Request, BucketKms> bucketDefault;
    private final Function<S3Request, DataKeyRecords> dataKeys;

    /**
     * @param bucketDefault the bucket's default SSE-KMS rule for a request's bucket, null when its default is not
     *                      {@code aws:kms}
     * @param dataKeys      where a KMS's data keys for a write's bucket are kept ({@link BucketDataKeys})
     */
    public ServerSideEncryption(CustomerKeyHeaders customerKeys, KmsKeySource keyring,
                                Function<S3Request, BucketKms> bucketDefault,
                                Function<S3Request, DataKeyRecords> dataKeys) {
        this.customerKeys = customerKeys;
        this.keyring = keyring;
        this.bucketDefault = bucketDefault;
        this.dataKeys = dataKeys;
    }

    /** A bucket's default encryption with {@code aws:kms}: its key id (null: the keyring's default) and flag. */
    public record BucketKms(String keyId, boolean bucketKeyEnabled) {
    }

    /**
     * What a write stores under: an SSE-C key, a keyring key (with the client's encryption context and bucket-key
     * flag), or neither.
     */
    public record Write(CustomerKey customerKey, KmsKey kms, String context, boolean bucketKeyEnabled) {
        /** The key the engine stores the object under (a keyring key's derived customer key), null for none. */
        public CustomerKey engineKey() {
            return kms != null ? kms.objectKey() : customerKey;
        }

        /** The object's attributes marked with the keyring key, or cleared of any such mark. */
        public ObjectAttributes apply(ObjectAttributes attributes) {
            return kms != null ? kms.stamp(attributes, context, bucketKeyEnabled) : KmsKey.unstamp(attributes);
        }

        /** The response headers S3 answers a write with: SSE-KMS's, or SSE-C's echo. */
        public S3Response echo(S3Response resp) {
            if (kms != null) {
                resp.header(SSE, KmsKey.ALGORITHM);
                resp.header(KEY_ID, kms.id());
                if (context != null) {
                    resp.header(CONTEXT, context);
                }
                if (bucketKeyEnabled) {
                    resp.header(BUCKET_KEY, "true");
                }
            }
            return CustomerKeyHeaders.echo(resp, customerKey);
        }
    }

    public CustomerKeyHeaders customerKeys() {
        return customerKeys;
    }

    /**
     * The encryption a PutObject, CreateMultipartUpload or CopyObject (destination) asks for. The KMS headers without
     * {@code aws:kms}: 400 InvalidArgument; an unknown key id: 400 KMS.NotFoundException; no keyring: 501.
     * ({@code FeatureHeaders} has already refused SSE-C with {@code x-amz-server-side-encryption}, other algorithms.)
     */
    public Write forWrite(S3Request r) {
        CustomerKey customerKey = customerKeys.requested(r);
        String sse = trimmed(r, SSE);
        String keyId = trimmed(r, KEY_ID);
        String context = trimmed(r, CONTEXT);
        boolean bucketKey = bucketKeyEnabled(r);
        if (!KmsKey.ALGORITHM.equals(sse)) {
            if (keyId != null || context != null) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Server Side Encryption with KMS managed key"
                        + " requires HTTP header x-amz-server-side-encryption : aws:kms");
            }
            if (sse == null && customerKey == null) {
                BucketKms rule = bucketDefault.apply(r);
                if (rule != null) {
                    return new Write(null, keyring.forWrite(rule.keyId(), dataKeys.apply(r)), null,
                            bucketKey || rule.bucketKeyEnabled());
                }
            }
            return new Write(customerKey, null, null, false);
        }
        if (keyId != null && keyId.isEmpty()) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "The key id header is empty.");
        }
        KmsKey key = keyring.forWrite(keyId, dataKeys.apply(r));
        return new Write(null, key, context == null ? null : checkedContext(context), bucketKey);
    }

    /** The key a GET, HEAD or UploadPart reads (or writes) with: the object's keyring key, else the SSE-C headers'. */
    public ObjectKeyResolver forRead(S3Request r) {
        return resolver(customerKeys.requested(r));
    }

    /** As {@link #forRead} for a copy's source ({@code x-amz-copy-source-server-side-encryption-customer-*}). */
    public ObjectKeyResolver forCopySource(S3Request r) {
        return resolver(customerKeys.copySource(r));
    }

    private ObjectKeyResolver resolver(CustomerKey given) {
        return attributes -> {
            String id = KmsKey.keyIdOf(attributes);
            if (id == null) {
                return given;
            }
            if (given != null) {
                throw new S3Exception(S3ErrorCode.INVALID_REQUEST, "The encryption parameters are not applicable to"
                        + " this object.");
            }
            return keyring.forRead(attributes).objectKey();
        };
    }

    /** {@code keys}, remembering what it was asked about, so that a part's response can name its encryption. */
    public Seen seen(ObjectKeyResolver keys) {
        return new Seen(keys);
    }

    /** A resolver that remembers the attributes it resolved and the key it gave (one request, one thread). */
    public static final class Seen implements ObjectKeyResolver {
        private final ObjectKeyResolver keys;
        private ObjectAttributes attributes;
        private CustomerKey key;

        private Seen(ObjectKeyResolver keys) {
            this.keys = keys;
        }

        @Override
        public CustomerKey keyFor(ObjectAttributes a) {
            attributes = a;
            key = keys.keyFor(a);
            return key;
        }

        /** SSE-KMS's headers for an upload or object under a keyring key, else SSE-C's echo of the key given. */
        public S3Response echo(S3Response resp) {
            if (attributes == null || KmsKey.keyIdOf(attributes) == null) {
                return CustomerKeyHeaders.echo(resp, key);
            }
            return echoStored(resp, attributes);
        }
    }

    /**
     * SSE-KMS's response headers (the algorithm, the key id, the bucket-key flag) for an object or upload with these
     * attributes, when it is under a keyring key; else {@code resp} as it is.
     */
    public static S3Response echoStored(S3Response resp, ObjectAttributes attributes) {
        String id = KmsKey.keyIdOf(attributes);
        if (id != null) {
            resp.header(SSE, KmsKey.ALGORITHM);
            resp.header(KEY_ID, id);
            if ("true".equals(attributes.headers().get(BUCKET_KEY))) {
                resp.header(BUCKET_KEY, "true");
            }
        }
        return resp;
    }

    /** An encryption context as S3 takes it: base64 of a JSON object whose values are strings (400 otherwise). */
    static String checkedContext(String context) {
        if (context.length() > MAX_CONTEXT) {
            throw invalidContext();
        }
        try {
            JsonNode node = JSON.readTree(Base64.getDecoder().decode(context));
            if (node == null || !node.isObject()) {
                throw invalidContext();
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                if (!it.next().getValue().isTextual()) {
                    throw invalidContext();
                }
            }
            return context;
        } catch (IllegalArgumentException | IOException e) {
            throw invalidContext();
        }
    }

    private static boolean bucketKeyEnabled(S3Request r) {
        String v = trimmed(r, BUCKET_KEY);
        if (v == null || v.equalsIgnoreCase("false")) {
            return false;
        }
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid value for "
                + "x-amz-server-side-encryption-bucket-key-enabled: true or false.");
    }

    private static S3Exception invalidContext() {
        return new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "The x-amz-server-side-encryption-context header must"
                + " be base64 of a JSON object of string values, at most 8 KiB.");
    }

    private static String trimmed(S3Request r, String name) {
        String v = r.header(name);
        return v == null ? null : v.trim();
    }
}
