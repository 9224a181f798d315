package io.coffer.sdk.deflate;

import java.util.Objects;

/**
 * The outcome of {@link ReproducibilityVerifier}: the object is reproducible (its partially decoded form re-encodes to
 * exactly its bytes) or it is not, and is stored as it came.
 *
 * @param reproducible whether re-encoding gave back exactly the original bytes
 * @param reason       why not, for logs; empty when reproducible
 * @param summary      what decoding found; null when decoding failed
 */
public record Verdict(boolean reproducible, String reason, DecodeSummary summary) {

    public Verdict {
        Objects.requireNonNull(reason, "reason");
    }

    static Verdict reproducible(DecodeSummary summary) {
        return new Verdict(true, "", summary);
    }

    static Verdict notReproducible(String reason, DecodeSummary summary) {
        return new Verdict(false, "not reproducible, store as is: " + reason, summary);
    }

    @Override
    public String toString() {
        return reproducible ? "reproducible" : reason;
    }
}
