package io.coffer.gateway.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The release checks against {@code ./coffer serve} on its default backend: a local directory. */
class DirectoryBackendReleaseIT extends ReleaseChecks {
    @Override
    ShippedGateway startGateway(Path work) throws Exception {
        return ShippedGateway.start(work, List.of(), Map.of());
    }

    /** docs/OPERATIONS.md, "Memory": the pools' softly kept arrays must not start a G1 cycle at every large array. */
    @Test
    void launcherStartsG1MarkingAtAFixedEightyPercentOfTheHeap() {
        assertThat(gateway.jvmArguments()).contains("-XX:-G1UseAdaptiveIHOP", "-XX:InitiatingHeapOccupancyPercent=80");
    }
}
