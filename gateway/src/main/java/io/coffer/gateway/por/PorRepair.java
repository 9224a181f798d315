package io.coffer.gateway.por;

import java.time.Duration;
import java.util.List;

/**
 * One repair's outcome as the gateway reports it.
 *
 * @param blocksChecked  mapped blocks of U read and verified
 * @param blocksDamaged  those that failed verification
 * @param blocksRepaired those decoded from C and H, verified and written back
 * @param unrepairable   indices of the damaged blocks that could not be restored
 * @param took           wall-clock time
 */
public record PorRepair(long blocksChecked, long blocksDamaged, long blocksRepaired, List<Integer> unrepairable,
                        Duration took) {
    public PorRepair {
        unrepairable = List.copyOf(unrepairable);
    }

    /** Every damaged block is back. */
    public boolean complete() {
        return unrepairable.isEmpty();
    }
}
