package io.coffer.gateway.s3.sse;

import io.coffer.gateway.config.ConfigKey;
import io.coffer.gateway.config.GatewayConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The SSE-KMS key source a configuration names: the keyring file ({@code kms-keyring}), the KMS ({@code kms-endpoint},
 * {@code kms-region}, {@code kms-access-key} and {@code kms-secret-key} or the AWS default chain), or none. Both at
 * once is a start error: which of them held an object's key would depend on the order they were asked in.
 */
public final class KmsKeySources {
    private KmsKeySources() {
    }

    /** IllegalArgumentException for a keyring and a KMS at once, or half of an explicit credential pair. */
    public static KmsKeySource configured(GatewayConfig c) throws IOException {
        String keyring = c.get(ConfigKey.KMS_KEYRING);
        String endpoint = c.get(ConfigKey.KMS_ENDPOINT);
        if (keyring != null && endpoint != null) {
            throw new IllegalArgumentException("kms-keyring and kms-endpoint are both set: SSE-KMS keys come from a"
                    + " keyring file or a KMS, not both (docs/OPERATIONS.md, \"SSE-KMS through a KMS\")");
        }
        if (keyring != null) {
            return KmsKeyring.load(Path.of(keyring));
        }
        if (endpoint == null) {
            return KmsKeyring.NONE;
        }
        URI uri;
        try {
            uri = URI.create(endpoint);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("kms-endpoint is not a URL: " + endpoint);
        }
        if (uri.getScheme() == null || uri.getHost() == null
                || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
            throw new IllegalArgumentException("kms-endpoint must be an http or https URL: " + endpoint);
        }
        String region = c.get(ConfigKey.KMS_REGION) != null ? c.get(ConfigKey.KMS_REGION) : c.get(ConfigKey.REGION);
        return KmsServiceKeys.connect(uri, region, credentials(c));
    }

    private static AwsCredentialsProvider credentials(GatewayConfig c) {
        String access = c.get(ConfigKey.KMS_ACCESS_KEY);
        String secret = c.get(ConfigKey.KMS_SECRET_KEY);
        if ((access == null) != (secret == null)) {
            throw new IllegalArgumentException("kms-access-key and kms-secret-key go together (or neither: the AWS"
                    + " default credential chain)");
        }
        return access == null ? DefaultCredentialsProvider.builder().build()
                : StaticCredentialsProvider.create(AwsBasicCredentials.create(access, secret));
    }
}
