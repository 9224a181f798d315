package io.coffer.por.blob;

import java.time.Duration;
import java.util.List;

/**
 * A repair pass over every mapped block of U: how many were read, how many failed their check, how many were
 * decoded from C and H and written back, and the indices that could not be (their data is lost).
 */
public record PorRepairReport(long blocksChecked, long blocksDamaged, long blocksRepaired, List<Integer> unrepairable,
        Duration took) {
    public PorRepairReport {
        unrepairable = List.copyOf(unrepairable);
    }
}
