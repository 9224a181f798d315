package io.coffer.por.field;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the PoR kernels' choice between a scalar loop and the Vector API depends on (docs/DECISIONS.md, "Vector kernels
 * for PoR"): whether the JVM resolved the incubator module (only when started with {@code --add-modules
 * jdk.incubator.vector}), whether it was told {@code -Dcoffer.por.vector=off} (to compare the two in one build), and
 * whether C2 multiplies 64-bit lanes natively. The checksum and the butterfly kernels each decide from these.
 */
public final class VectorSupport {
    public static final String MODULE = "jdk.incubator.vector";
    private static final Logger LOG = LoggerFactory.getLogger(VectorSupport.class);
    /** Narrower vectors than this leave a kernel to the scalar loops. */
    private static final int MIN_BITS = 256;

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

    /**
     * The vector kernel where the Vector API is {@link #usable} and its preferred vectors have at least 256 bits, else
     * {@code scalar}. {@code bits} and {@code vector} are only called with the module present: they link against it.
     */
    public static <K> K choose(String what, K scalar, IntSupplier bits, Supplier<K> vector) {
        if (!usable()) {
            return scalar;
        }
        try {
            int preferred = bits.getAsInt();
            if (preferred >= MIN_BITS) {
                return vector.get();
            }
            LOG.info("{}: vectors of {} bits, below {}: scalar kernel", what, preferred, MIN_BITS);
        } catch (LinkageError e) {
            LOG.warn("{}: the Vector API did not load ({}): scalar kernel", what, e.toString());
        }
        return scalar;
    }
}
