package io.coffer.gateway.s3.sse;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.sdk.KmsKey;
import io.coffer.sdk.ObjectAttributes;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.kms.model.DataKeySpec;
import software.amazon.awssdk.services.kms.model.DecryptResponse;
import software.amazon.awssdk.services.kms.model.GenerateDataKeyResponse;
import software.amazon.awssdk.services.kms.model.KeyMetadata;
import software.amazon.awssdk.services.kms.model.KeyState;

/**
 * SSE-KMS keys from an AWS-KMS-compatible service, as S3 Bucket Keys: per bucket and KMS key one data key, made by
 * {@code GenerateDataKey} (AES_256) the first time a write needs it, kept KMS-encrypted in the bucket's records
 * ({@link DataKeyRecords}) so that a restarted gateway reuses it, and stamped, encrypted, on every object stored under
 * it; objects under one data key deduplicate among themselves. The object key is derived from the data key as from a
 * keyring key ({@link KmsKey#objectKey}), so the engine's SSE-C path stores it.
 *
 * <p>Every write asks the KMS about its key id ({@code DescribeKey}: it must exist and be enabled; the answer's ARN is
 * the id reported and stamped), so a disabled key refuses writes at once and a KMS that cannot be reached fails them
 * with 503 before anything is written. A read decrypts the object's stamped data key ({@code Decrypt}, after the same
 * check) unless this gateway holds it already: decrypted data keys stay in a bounded in-memory cache, and a cached one
 * is used without asking the KMS, so objects read since the start stay readable while the KMS is away. Data keys are
 * never logged. The client's encryption context is not bound to the data key (one data key serves objects with any
 * context); the KMS requests carry the fixed context {@link #CONTEXT} instead.
 */
public final class KmsServiceKeys implements KmsKeySource {
    /** The encryption context of every GenerateDataKey and Decrypt: a data key decrypts only where it is named. */
    public static final Map<String, String> CONTEXT = Map.of("coffer:purpose", "sse-kms-data-key/v1");
    private static final int CACHE_SIZE = 10_000;

    private final KmsClient kms;
    /** The data key of each bucket scope and KMS key ARN ({@code scope + "\n" + arn}). */
    private final Cache<String, KmsKey> writeKeys = Caffeine.newBuilder().maximumSize(CACHE_SIZE).build();
    /** Decrypted data keys by their encrypted form. */
    private final Cache<String, KmsKey> readKeys = Caffeine.newBuilder().maximumSize(CACHE_SIZE).build();
    private final Object generating = new Object();

    public KmsServiceKeys(KmsClient kms) {
        this.kms = kms;
    }

    /**
     * A client of the KMS at {@code endpoint} in {@code region} with these credentials: short timeouts, so that a KMS
     * that does not answer fails a request in seconds rather than holding it.
     */
    public static KmsServiceKeys connect(URI endpoint, String region, AwsCredentialsProvider credentials) {
        KmsClient client = KmsClient.builder()
                .endpointOverride(endpoint)
                .region(Region.of(region))
                .credentialsProvider(credentials)
                .httpClientBuilder(ApacheHttpClient.builder().connectionTimeout(Duration.ofSeconds(2))
                        .socketTimeout(Duration.ofSeconds(10)))
                .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofSeconds(20)))
                .build();
        return new KmsServiceKeys(client);
    }

    @Override
    public boolean configured() {
        return true;
    }

    @Override
    public void checkWritable(String requested) {
        enabledKey(requested == null ? KmsKeyring.DEFAULT_ID : requested.trim());
    }

    @Override
    public KmsKey forWrite(String requested, DataKeyRecords records) {
        String arn = enabledKey(requested == null ? KmsKeyring.DEFAULT_ID : requested.trim());
        String slot = records.scope() + "\n" + arn;
        KmsKey key = writeKeys.getIfPresent(slot);
        if (key != null) {
            return key;
        }
        // rare (once per bucket and key per start): one at a time, so two writes never make two data keys
        synchronized (generating) {
            key = writeKeys.getIfPresent(slot);
            if (key == null) {
                key = records.wrapped(arn).map(w -> decrypt(arn, w)).orElseGet(() -> generate(arn, records));
                writeKeys.put(slot, key);
                readKeys.put(key.wrappedDataKey(), key);
            }
            return key;
        }
    }

    @Override
    public KmsKey forRead(ObjectAttributes attributes) {
        String id = KmsKey.keyIdOf(attributes);
        String wrapped = KmsKey.wrappedDataKeyOf(attributes);
        if (wrapped == null) {
            throw new S3Exception(S3ErrorCode.KMS_NOT_FOUND, "The object was stored under keyring key " + id
                    + "; this gateway uses a KMS, not a keyring.");
        }
        KmsKey key = readKeys.getIfPresent(wrapped);
        if (key != null && key.id().equals(id)) {
            return key;
        }
        enabledKey(id);
        key = decrypt(id, wrapped);
        readKeys.put(wrapped, key);
        return key;
    }

    /** The ARN of the KMS key {@code keyId} names (id, alias or ARN); S3's error when it is unknown or not usable. */
    private String enabledKey(String keyId) {
        KeyMetadata meta;
        try {
            meta = kms.describeKey(b -> b.keyId(keyId)).keyMetadata();
        } catch (SdkException e) {
            throw KmsErrors.translate(e, keyId);
        }
        if (meta.keyState() == KeyState.DISABLED) {
            throw new S3Exception(S3ErrorCode.KMS_DISABLED, keyId + " is disabled.");
        }
        if (meta.keyState() != KeyState.ENABLED) {
            throw new S3Exception(S3ErrorCode.KMS_INVALID_STATE, keyId + " is " + meta.keyStateAsString()
                    + " and cannot be used.");
        }
        return meta.arn();
    }

    private KmsKey generate(String arn, DataKeyRecords records) {
        GenerateDataKeyResponse made;
        try {
            made = kms.generateDataKey(b -> b.keyId(arn).keySpec(DataKeySpec.AES_256).encryptionContext(CONTEXT));
        } catch (SdkException e) {
            throw KmsErrors.translate(e, arn);
        }
        String wrapped = Base64.getEncoder().encodeToString(made.ciphertextBlob().asByteArrayUnsafe());
        KmsKey key = dataKey(arn, made.plaintext(), wrapped);
        // kept before any object uses it: a crash after this point loses nothing, a record lost meanwhile only dedup
        records.keep(arn, wrapped);
        return key;
    }

    private KmsKey decrypt(String arn, String wrapped) {
        byte[] blob;
        try {
            blob = Base64.getDecoder().decode(wrapped);
        } catch (IllegalArgumentException e) {
            throw new S3Exception(S3ErrorCode.INTERNAL_ERROR, "The data key stored under " + arn + " is not base64.");
        }
        DecryptResponse opened;
        try {
            opened = kms.decrypt(b -> b.ciphertextBlob(SdkBytes.fromByteArray(blob)).keyId(arn)
                    .encryptionContext(CONTEXT));
        } catch (SdkException e) {
            throw KmsErrors.translate(e, arn);
        }
        return dataKey(arn, opened.plaintext(), wrapped);
    }

    private static KmsKey dataKey(String arn, SdkBytes plaintext, String wrapped) {
        byte[] bytes = plaintext.asByteArray();
        try {
            if (bytes.length != KmsKey.LENGTH) {
                throw new S3Exception(S3ErrorCode.INTERNAL_ERROR, "The KMS answered a data key of " + bytes.length
                        + " bytes for " + arn + ", not " + KmsKey.LENGTH + ".");
            }
            return KmsKey.ofDataKey(arn, bytes, wrapped);
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }

    @Override
    public void close() {
        kms.close();
    }

    @Override
    public String toString() {
        return "KmsServiceKeys[" + writeKeys.estimatedSize() + " data keys in use]";
    }
}
