package io.coffer.por.checksum;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the checksum kernel once per JVM. The Vector API's runs where the JVM was started with
 * {@code --add-modules jdk.incubator.vector}, prefers vectors of at least 256 bits, and multiplies 64-bit lanes
 * natively (on x86, with AVX-512: {@code -XX:UseAVX=3}, which JDK 17 does not set by default on Skylake-family Xeons);
 * everywhere else the scalar loop runs, with the same checksums, so an embedded user without the flags loses speed,
 * nothing else. {@code -Dcoffer.por.vector=off} forces the scalar kernel, e.g. to compare the two in one build.
 */
public final class ChecksumKernels {
    private static final Logger LOG = LoggerFactory.getLogger(ChecksumKernels.class);
    static final String MODULE = "jdk.incubator.vector";
    private static final int MIN_BITS = 256;
    private static final ChecksumKernel CHOSEN = choose();

    private ChecksumKernels() {}

    static ChecksumKernel chosen() {
        return CHOSEN;
    }

    /** The chosen kernel's name: "scalar" or "vector-BITS". */
    public static String chosenName() {
        return CHOSEN.name();
    }

    /** Whether the running JVM resolved the Vector API module (it does only when told to add it). */
    static boolean vectorModulePresent() {
        return ModuleLayer.boot().findModule(MODULE).isPresent();
    }

    private static ChecksumKernel choose() {
        if ("off".equals(System.getProperty("coffer.por.vector")) || !vectorModulePresent()) {
            return ScalarChecksumKernel.INSTANCE;
        }
        if (!nativeLongProducts()) {
            LOG.info("PoR checksums: the JVM does not use AVX-512 (-XX:UseAVX=3), so 64-bit vector products would be "
                    + "emulated: scalar kernel");
            return ScalarChecksumKernel.INSTANCE;
        }
        try {
            // only touched with the module present: the class links against jdk.incubator.vector
            if (VectorChecksumKernel.preferredBits() >= MIN_BITS) {
                return VectorChecksumKernel.INSTANCE;
            }
            LOG.info("PoR checksums: vectors of {} bits, below {}: scalar kernel", VectorChecksumKernel.preferredBits(),
                    MIN_BITS);
        } catch (LinkageError e) {
            LOG.warn("PoR checksums: the Vector API did not load ({}): scalar kernel", e.toString());
        }
        return ScalarChecksumKernel.INSTANCE;
    }

    /**
     * Whether C2 emits 64-bit lane products here: on x86 only with AVX-512 in use (measured: emulated under AVX2 the
     * vector kernel ran slower than the scalar loop); elsewhere (aarch64) assumed, the species width deciding.
     */
    private static boolean nativeLongProducts() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!arch.equals("amd64") && !arch.equals("x86_64")) {
            return true;
        }
        try {
            HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return Integer.parseInt(hotSpot.getVMOption("UseAVX").getValue()) >= 3;
        } catch (RuntimeException | LinkageError e) {
            return false; // not HotSpot, or no such option: do not guess
        }
    }
}
