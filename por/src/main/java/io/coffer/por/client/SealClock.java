package io.coffer.por.client;

import io.coffer.por.code.LogState;

/**
 * The write time t that keys the sealed checksums of C and H (kappa = PRF(sk0, 0, addr, t)), computed from the log
 * state alone, as section 5.4 requires. Time runs 2^(k+1) per epoch, k the exponent of the log (H's counts batches:
 * k - b), which is more than the adds of an epoch, so times never repeat: C built at the start of epoch e has time
 * e * 2^(k+1) (k of the log over blocks); an H level holding adds start..start+2^l-1 of epoch e was built by its last
 * add and has time e * 2^(k+1) + start + 2^l. C and H are keyed apart (the buffer is in the key).
 */
public final class SealClock {
    private SealClock() {}

    /** The time C was built at the start of {@code epoch}, for 2^k blocks. */
    public static long cTime(long epoch, int k) {
        return epoch << (k + 1);
    }

    /** The time level {@code level} (filled in {@code state}) was built. */
    public static long levelTime(LogState state, int level) {
        return (state.epoch() << (state.k() + 1)) + state.start(level) + (1L << level);
    }
}
