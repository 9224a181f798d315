package io.coffer.por.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The client's secrets, derived from one 32-byte master key by HMAC-SHA256 with distinct labels (the sub-key pattern
 * of docs/DECISIONS.md "Sub-keys by HMAC"): sk0 for sealing checksums, the key the checksum matrix of blocks (U and
 * C) is expanded from, and the key of H's matrix, whose vectors are batches of 2^b blocks: each block position of a
 * batch gets its own columns, so moving or merging blocks within a batch changes the checksum.
 */
public record PorKeys(byte[] sealingKey, byte[] checksumKey, byte[] batchChecksumKey) {
    public PorKeys {
        sealingKey = sealingKey.clone();
        checksumKey = checksumKey.clone();
        batchChecksumKey = batchChecksumKey.clone();
    }

    public static PorKeys derive(byte[] masterKey) {
        if (masterKey.length != 32) {
            throw new IllegalArgumentException("the PoR master key must be 32 bytes, got " + masterKey.length);
        }
        try {
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(masterKey, "HmacSHA256"));
            byte[] sealing = hmac.doFinal("coffer-por sealing key".getBytes(StandardCharsets.US_ASCII));
            byte[] checksum = hmac.doFinal("coffer-por checksum matrix".getBytes(StandardCharsets.US_ASCII));
            byte[] batch = hmac.doFinal("coffer-por batch checksum matrix".getBytes(StandardCharsets.US_ASCII));
            return new PorKeys(sealing, checksum, batch);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 unavailable", e);
        }
    }

    @Override
    public byte[] sealingKey() {
        return sealingKey.clone();
    }

    @Override
    public byte[] checksumKey() {
        return checksumKey.clone();
    }

    @Override
    public byte[] batchChecksumKey() {
        return batchChecksumKey.clone();
    }
}
