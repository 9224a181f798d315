package io.coffer.por.client;

import io.coffer.por.code.LogState;

/**
 * The write time t that keys the sealed checksums of C and H (kappa = PRF(sk0, 0, addr, t)), computed from the log
 * state alone, as section 5.4 requires. Time runs 2^(k+1) per epoch (an epoch is n writes between two C rebuilds, so
 * this is more than enough and never repeats): C built at the start of epoch e has time e * 2^(k+1); a level holding
 * writes start..start+2^l-1 of epoch e was built by its last write and has time e * 2^(k+1) + start + 2^l.
 */
public final class SealClock {
    private SealClock() {}

    public static long cTime(LogState state) {
        return state.epoch() << (state.k() + 1);
    }

    /** The time level {@code level} (filled in {@code state}) was built. */
    public static long levelTime(LogState state, int level) {
        return (state.epoch() << (state.k() + 1)) + state.start(level) + (1L << level);
    }
}
