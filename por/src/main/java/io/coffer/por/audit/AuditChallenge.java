package io.coffer.por.audit;

import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.field.Zp;
import java.util.List;

/**
 * What the client asks in an audit (section 5.5): the addresses of the sampled code blocks and one random
 * coefficient of Z_p per address. The server answers with B* = sum(r_i * B_i) and the sealed checksums.
 */
public record AuditChallenge(List<BlockAddress> addresses, int[] coefficients) {
    public AuditChallenge {
        addresses = List.copyOf(addresses);
        coefficients = coefficients.clone();
        if (addresses.size() != coefficients.length) {
            throw new IllegalArgumentException(addresses.size() + " addresses but " + coefficients.length
                    + " coefficients");
        }
        for (int r : coefficients) {
            if (r < 0 || r >= Zp.P) {
                throw new IllegalArgumentException("coefficient out of Z_p: " + r);
            }
        }
    }

    @Override
    public int[] coefficients() {
        return coefficients.clone();
    }

    public int size() {
        return coefficients.length;
    }

    public int coefficient(int i) {
        return coefficients[i];
    }

    /** Client-to-server bytes: per sample an address and a 4-byte coefficient. */
    public long wireBytes() {
        return (long) size() * (BlockAddress.BYTES + Integer.BYTES);
    }
}
