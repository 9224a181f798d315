package io.coffer.por.audit;

import io.coffer.por.checksum.Checksum;
import io.coffer.por.checksum.ChecksumKey;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.checksum.SealBrokenException;

/**
 * The client's check of an audit answer (section 5.5): opens every sealed checksum under its address and write time,
 * computes v = sum(r_i * sigma_i) and accepts only if v == sigma(B*). A server that lost or altered a sampled block
 * must guess sigma of its B*, i.e. forge the checksum without M: it succeeds with probability about 1/p^rho.
 */
public final class AuditVerifier {
    private final ChecksumKey key;
    private final ChecksumSealer sealer;

    public AuditVerifier(ChecksumKey key, ChecksumSealer sealer) {
        this.key = key;
        this.sealer = sealer;
    }

    public AuditVerdict verify(AuditPlanner.Plan plan, AuditResponse response) {
        AuditChallenge challenge = plan.challenge();
        if (response.sealedChecksums().size() != challenge.size()) {
            return AuditVerdict.fail(challenge.size(), "expected " + challenge.size() + " sealed checksums, got "
                    + response.sealedChecksums().size());
        }
        int[] aggregate = response.aggregate();
        if (aggregate.length != key.width()) {
            return AuditVerdict.fail(challenge.size(), "aggregate block has " + aggregate.length + " elements, not "
                    + key.width());
        }
        Checksum expected = Checksum.zero();
        for (int i = 0; i < challenge.size(); i++) {
            Checksum sigma;
            try {
                sigma = sealer.open(challenge.addresses().get(i), plan.writeTime(i), response.sealedChecksums().get(i));
            } catch (SealBrokenException e) {
                return AuditVerdict.fail(challenge.size(), e.getMessage());
            }
            expected = expected.plus(sigma.times(challenge.coefficient(i)));
        }
        Checksum actual;
        try {
            actual = key.checksum(aggregate);
        } catch (IllegalArgumentException e) {
            return AuditVerdict.fail(challenge.size(), "aggregate block is not over Z_p: " + e.getMessage());
        }
        if (!actual.equals(expected)) {
            return AuditVerdict.fail(challenge.size(), "aggregate block does not match the sampled checksums");
        }
        return AuditVerdict.pass(challenge.size());
    }
}
