package io.coffer.por.checksum;

import io.coffer.por.field.VectorSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the checksum kernel once per JVM. The Vector API's runs where the JVM was started with
 * {@code --add-modules jdk.incubator.vector}, prefers vectors of at least 256 bits, and multiplies 64-bit lanes
 * natively (on x86, with AVX-512: {@code -XX:UseAVX=3}, which JDK 17 does not set by default on Skylake-family Xeons);
 * everywhere else the scalar loop runs, with the same checksums, so an embedded user without the flags loses speed,
 * nothing else. {@code -Dcoffer.por.vector=off} forces the scalar kernel, e.g. to compare the two in one build
 * ({@link VectorSupport}).
 */
public final class ChecksumKernels {
    private static final Logger LOG = LoggerFactory.getLogger(ChecksumKernels.class);
    static final String MODULE = VectorSupport.MODULE;
    private static final ChecksumKernel CHOSEN = choose();

    private ChecksumKernels() {}

    static ChecksumKernel chosen() {
        return CHOSEN;
    }

    /** The chosen kernel's name: "scalar" or "vector-BITS". */
    public static String chosenName() {
        return CHOSEN.name();
    }

    private static ChecksumKernel choose() {
        if (VectorSupport.usable() && !VectorSupport.nativeLongProducts()) {
            LOG.info("PoR checksums: the JVM does not use AVX-512 (-XX:UseAVX=3), so 64-bit vector products would be "
                    + "emulated: scalar kernel");
            return ScalarChecksumKernel.INSTANCE;
        }
        // lambdas, not method references: linked only when called, i.e. with the module present
        return VectorSupport.choose("PoR checksums", ScalarChecksumKernel.INSTANCE,
                () -> VectorChecksumKernel.preferredBits(), () -> VectorChecksumKernel.INSTANCE);
    }
}
