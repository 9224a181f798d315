package io.coffer.gateway.auth;

import java.util.Objects;

/** An access key, its secret and the tenant (owner id) it acts for. {@link #toString()} never shows the secret. */
public record Credential(String accessKeyId, String secretKey, String owner) {
    public Credential {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(secretKey, "secretKey");
        Objects.requireNonNull(owner, "owner");
    }

    @Override
    public String toString() {
        return "Credential[accessKeyId=" + accessKeyId + ", secretKey=<redacted>, owner=" + owner + "]";
    }
}
