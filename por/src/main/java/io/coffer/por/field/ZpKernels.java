package io.coffer.por.field;

/**
 * Chooses the butterfly kernel once per JVM: the Vector API's where the JVM resolved the module and prefers vectors of
 * at least 256 bits (its int lane products are native under AVX2 as under AVX-512, so unlike the checksum's it needs
 * no {@code -XX:UseAVX=3}); the scalar loops everywhere else, with the same results. {@code -Dcoffer.por.vector=off}
 * forces the scalar kernels ({@link VectorSupport}).
 */
final class ZpKernels {
    private static final ZpKernel CHOSEN = VectorSupport.choose("PoR butterflies", ScalarZpKernel.INSTANCE,
            () -> VectorZpKernel.preferredBits(), () -> VectorZpKernel.INSTANCE); // lambdas: linked only when called

    private ZpKernels() {}

    static ZpKernel chosen() {
        return CHOSEN;
    }
}
