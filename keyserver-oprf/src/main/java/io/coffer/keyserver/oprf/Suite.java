package io.coffer.keyserver.oprf;

/** The OPRF suites a key can be used with, each with the one-byte identifier carried on the wire. */
public enum Suite {
    /** DupLESS RSA-OPRF: blind RSA over a SHA-256 full-domain hash; verified by the client. */
    RSA_FDH_SHA256(0x01, "RSA-FDH-SHA256"),
    /** RFC 9497 P256-SHA256, mode OPRF (0x00): not verifiable by the client. */
    P256_SHA256_OPRF(0x02, "P256-SHA256/OPRF"),
    /** RFC 9497 P256-SHA256, mode VOPRF (0x01): every answer carries a DLEQ proof. */
    P256_SHA256_VOPRF(0x03, "P256-SHA256/VOPRF");

    private final int id;
    private final String label;

    Suite(int id, String label) {
        this.id = id;
        this.label = label;
    }

    /** The wire identifier. */
    public int id() {
        return id;
    }

    /** Whether a client can verify answers in this suite. */
    public boolean verifiable() {
        return this != P256_SHA256_OPRF;
    }

    /** The suite for a wire identifier, or {@code null} if unknown. */
    public static Suite fromId(int id) {
        for (Suite s : values()) {
            if (s.id == id) {
                return s;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return label;
    }
}
