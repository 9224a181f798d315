package io.coffer.por.field;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * What the PoR kernels' choice between a scalar loop and the Vector API depends on (docs/DECISIONS.md, "Vector kernels
 * for PoR"): whether the JVM resolved the incubator module (only when started with {@code --add-modules
 * jdk.incubator.vector}), whether it was told {@code -Dcoffer.por.vector=off} (to compare the two in one build), and
 * whether C2 multiplies 64-bit lanes natively. The checksum and the butterfly kernels each decide from these.
 */
public final class VectorSupport {
    public static final String MODULE = "jdk.incubator.vector";

    private VectorSupport() {}

    /** Whether the Vector API may be used at all: the module is there and no one forced the scalar kernels. */
    public static boolean usable() {
        return !"off".equals(System.getProperty("coffer.por.vector"))
                && ModuleLayer.boot().findModule(MODULE).isPresent();
    }

    /**
     * Whether C2 emits 64-bit lane products here: on x86 only with AVX-512 in use (measured: emulated under AVX2 the
     * vector checksum ran slower than the scalar loop); elsewhere (aarch64) assumed, the species width deciding.
     */
    public static boolean nativeLongProducts() {
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
