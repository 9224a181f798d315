package io.coffer.sdk.key;

import io.coffer.sdk.crypto.ChunkKey;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Convergent encryption, the baseline DupLESS improves on: {@code K = HMAC-SHA256(secret, "coffer/ce/v1" || h)}.
 * With an empty secret anyone who can guess a chunk can compute its key (offline brute force); a deployment secret
 * limits that to holders of the secret, as Tahoe-LAFS's convergence secret does.
 */
public final class ConvergentKeySource implements KeySource {
    private static final byte[] LABEL = "coffer/ce/v1".getBytes(StandardCharsets.US_ASCII);
    private final byte[] secret;

    public ConvergentKeySource(byte[] secret) {
        // HMAC with an empty key is well defined (RFC 2104 pads it), so the plain CE baseline is secret = {}.
        this.secret = secret.clone();
    }

    @Override
    public List<ChunkKey> keysFor(List<byte[]> chunkHashes) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.length == 0 ? new byte[1] : secret, "HmacSHA256"));
            List<ChunkKey> keys = new ArrayList<>(chunkHashes.size());
            for (byte[] h : chunkHashes) {
                mac.update(LABEL);
                keys.add(ChunkKey.of(mac.doFinal(h)));
            }
            return keys;
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    @Override
    public boolean messageLocked() {
        return true;
    }

    @Override
    public String name() {
        return "convergent";
    }
}
