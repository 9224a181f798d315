package io.coffer.por.field;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the butterfly kernel once per JVM: the Vector API's where the JVM resolved the module and prefers vectors of
 * at least 256 bits (its int lane products are native under AVX2 as under AVX-512, so unlike the checksum's it needs
 * no {@code -XX:UseAVX=3}); the scalar loops everywhere else, with the same results. {@code -Dcoffer.por.vector=off}
 * forces the scalar kernels ({@link VectorSupport}).
 */
final class ZpKernels {
    private static final Logger LOG = LoggerFactory.getLogger(ZpKernels.class);
    private static final int MIN_BITS = 256;
    private static final ZpKernel CHOSEN = choose();

    private ZpKernels() {}

    static ZpKernel chosen() {
        return CHOSEN;
    }

    private static ZpKernel choose() {
        if (!VectorSupport.usable()) {
            return ScalarZpKernel.INSTANCE;
        }
        try {
            // only touched with the module present: the class links against jdk.incubator.vector
            if (VectorZpKernel.preferredBits() >= MIN_BITS) {
                return VectorZpKernel.INSTANCE;
            }
            LOG.info("PoR butterflies: vectors of {} bits, below {}: scalar kernel", VectorZpKernel.preferredBits(),
                    MIN_BITS);
        } catch (LinkageError e) {
            LOG.warn("PoR butterflies: the Vector API did not load ({}): scalar kernel", e.toString());
        }
        return ScalarZpKernel.INSTANCE;
    }
}
