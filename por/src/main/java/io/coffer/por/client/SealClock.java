package io.coffer.por.client;

/**
 * The write time t that keys the sealed checksums of C and H (kappa = PRF(sk0, 0, addr, t)), computed from the log
 * state alone, as section 5.4 requires. Time runs 2^(k+1) per epoch, k the exponent of the log (H's counts batches:
 * k - b), which is more than the adds of an epoch, so times never repeat: C built at the start of epoch e has time
 * e * 2^(k+1) (k of the log over blocks); a vector of H written by add number {@code count} (1..2^(k-b)) of epoch e
 * ({@link io.coffer.por.code.DeamortizedSchedule}: the new level-0 run and the merge steps' outputs) has time
 * e * 2^(k-b+1) + count, so a slot reused later in the epoch, or in another epoch, has another time. C and H are
 * keyed apart (the buffer is in the key).
 */
public final class SealClock {
    private SealClock() {}

    /** The time C was built at the start of {@code epoch}, for 2^k blocks. */
    public static long cTime(long epoch, int k) {
        return epoch << (k + 1);
    }

    /** The time of add count 0 of {@code epoch} of H, whose exponent is {@code hK}: add c's vectors have this + c. */
    public static long hEpochTime(long epoch, int hK) {
        return epoch << (hK + 1);
    }

    /** The time of the vectors of H that add {@code count} of {@code epoch} writes. */
    public static long hTime(long epoch, int hK, int count) {
        return hEpochTime(epoch, hK) + count;
    }
}
