package io.coffer.por.audit;

import io.coffer.por.checksum.BlockAddress;
import io.coffer.por.field.Zp;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Draws an audit: {@code lambda} distinct random code blocks of each region (all of a region smaller than lambda) and a
 * uniformly random non-zero coefficient per block, from a {@link SecureRandom} the server cannot predict.
 */
public final class AuditPlanner {
    public static final int DEFAULT_LAMBDA = 128;

    private final int lambda;
    private final SecureRandom random;

    public AuditPlanner(int lambda, SecureRandom random) {
        if (lambda <= 0) {
            throw new IllegalArgumentException("lambda must be positive: " + lambda);
        }
        this.lambda = lambda;
        this.random = random;
    }

    /** The challenge, and the write time of each sampled address (what opens its sealed checksum). */
    public Plan plan(List<AuditedRegion> regions) {
        List<BlockAddress> addresses = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        for (AuditedRegion region : regions) {
            for (long j : sample(region.size())) {
                addresses.add(region.address(j));
                times.add(region.writeTime(j));
            }
        }
        int[] coefficients = new int[addresses.size()];
        for (int i = 0; i < coefficients.length; i++) {
            coefficients[i] = 1 + random.nextInt(Zp.P - 1);
        }
        long[] t = times.stream().mapToLong(Long::longValue).toArray();
        return new Plan(new AuditChallenge(addresses, coefficients), t);
    }

    private List<Long> sample(long size) {
        List<Long> picked = new ArrayList<>();
        if (size <= lambda) {
            for (long j = 0; j < size; j++) {
                picked.add(j);
            }
            return picked;
        }
        Set<Long> seen = new HashSet<>();
        while (picked.size() < lambda) {
            long j = (long) (random.nextDouble() * size);
            if (j < size && seen.add(j)) {
                picked.add(j);
            }
        }
        return picked;
    }

    /** A challenge with the write time of each of its addresses, index for index. */
    public record Plan(AuditChallenge challenge, long[] writeTimes) {
        public Plan {
            writeTimes = writeTimes.clone();
        }

        public long writeTime(int i) {
            return writeTimes[i];
        }

    }
}
