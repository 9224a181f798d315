package io.coffer.sdk.vector;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a choice between a scalar kernel and one on the Vector API (incubating in JDK 17; docs/DECISIONS.md, "Vector
 * kernels for PoR" and "MD5 of several bodies at once") depends on: whether the JVM resolved the incubator module
 * (only when started with {@code --add-modules jdk.incubator.vector}), whether the kernel's switch property was set to
 * {@code off} (to compare the two in one build), whether the JVM's preferred vectors are wide enough, and, for kernels
 * that multiply 64-bit lanes, whether C2 does that natively.
 */
public final class VectorApi {
    public static final String MODULE = "jdk.incubator.vector";
    private static final Logger LOG = LoggerFactory.getLogger(VectorApi.class);
    /** Narrower vectors than this leave a kernel to the scalar loops. */
    private static final int MIN_BITS = 256;

    private VectorApi() {}

    /** Whether the Vector API may be used: the module is there and {@code offProperty} is not {@code off}. */
    public static boolean usable(String offProperty) {
        return !"off".equals(System.getProperty(offProperty)) && ModuleLayer.boot().findModule(MODULE).isPresent();
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
    public static <K> K choose(String what, String offProperty, K scalar, IntSupplier bits, Supplier<K> vector) {
        if (!usable(offProperty)) {
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
