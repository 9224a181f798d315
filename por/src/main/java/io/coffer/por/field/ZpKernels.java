package io.coffer.por.field;

/**
 * Chooses the butterfly kernel once per JVM. The Vector API's ({@link VectorZpKernel}) only when asked for with
 * {@code -Dcoffer.por.vector.butterflies=on}, and then where the JVM resolved the module and prefers vectors of at
 * least 256 bits (its int lane products are native under AVX2 as under AVX-512, so unlike the checksum's it needs no
 * {@code -XX:UseAVX=3}); the scalar loops everywhere else, with the same results. Not the default: alone on one thread
 * it runs an HAdd epoch about 30 % faster, but in a PoR store (client and server threads in one JVM, short-lived work)
 * C2 left a quarter of the samples in the Vector API's Java fallbacks and the PUT took more CPU per MB than with the
 * scalar loops (docs/BENCHMARKS.md, porbfly). {@code -Dcoffer.por.vector=off} forces every scalar kernel.
 */
final class ZpKernels {
    /** The system property that turns the vector butterflies on ("on"). */
    static final String PROPERTY = "coffer.por.vector.butterflies";
    private static final ZpKernel CHOSEN = "on".equals(System.getProperty(PROPERTY))
            ? VectorSupport.choose("PoR butterflies", ScalarZpKernel.INSTANCE, () -> VectorZpKernel.preferredBits(),
                    () -> VectorZpKernel.INSTANCE) // lambdas: linked only when called
            : ScalarZpKernel.INSTANCE;

    private ZpKernels() {}

    static ZpKernel chosen() {
        return CHOSEN;
    }
}
