package io.coffer.sdk;

/**
 * Picks the key a read or a part upload needs from the attributes of the object (or upload) it acts on, read in the
 * same step as the data: an object under a keyring's key (SSE-KMS, {@link KmsKey}) names its key id there, so a
 * request that sends no key can still be served, and a version replaced between a look and the read cannot make the
 * request open one object with another's key.
 */
@FunctionalInterface
public interface ObjectKeyResolver {
    /**
     * The customer key to check and unwrap with for an object with {@code attributes}, null for none; may throw a
     * {@link CofferException} (or the caller's own error) when the key the attributes name is not available.
     */
    CustomerKey keyFor(ObjectAttributes attributes);

    /** Always {@code key} (null: none), whatever the object: what a request that names an SSE-C key gives. */
    static ObjectKeyResolver of(CustomerKey key) {
        return attributes -> key;
    }
}
