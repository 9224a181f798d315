package io.coffer.por.field;

import io.coffer.sdk.vector.VectorApi;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The PoR kernels' switch over {@link VectorApi} (docs/DECISIONS.md, "Vector kernels for PoR"): {@code
 * -Dcoffer.por.vector=off} forces every PoR kernel onto its scalar loops, e.g. to compare the two in one build. The
 * checksum and the butterfly kernels each decide from these.
 */
public final class VectorSupport {
    public static final String MODULE = VectorApi.MODULE;
    /** The system property that forces the scalar kernels ("off"). */
    public static final String OFF_PROPERTY = "coffer.por.vector";

    private VectorSupport() {}

    /** Whether the Vector API may be used at all: the module is there and no one forced the scalar kernels. */
    public static boolean usable() {
        return VectorApi.usable(OFF_PROPERTY);
    }

    /** See {@link VectorApi#nativeLongProducts}. */
    public static boolean nativeLongProducts() {
        return VectorApi.nativeLongProducts();
    }

    /** See {@link VectorApi#choose}. */
    public static <K> K choose(String what, K scalar, IntSupplier bits, Supplier<K> vector) {
        return VectorApi.choose(what, OFF_PROPERTY, scalar, bits, vector);
    }
}
