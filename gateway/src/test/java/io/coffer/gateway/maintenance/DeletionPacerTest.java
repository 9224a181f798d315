package io.coffer.gateway.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lifecycle sweep's rate bound on a fake clock: waits fill each interval, slow callers get no burst. */
class DeletionPacerTest {
    private long now;
    private final List<Long> waits = new ArrayList<>();

    private DeletionPacer pacer(double perSecond) {
        return new DeletionPacer(perSecond, () -> now, nanos -> {
            waits.add(nanos);
            now += nanos;
        });
    }

    @Test
    void backToBackDeletionsWaitOneIntervalEach() {
        DeletionPacer p = pacer(10);
        for (int i = 0; i < 4; i++) {
            p.acquire();
        }
        assertThat(waits).containsExactly(100_000_000L, 100_000_000L, 100_000_000L);
        assertThat(now).isEqualTo(300_000_000L);
    }

    @Test
    void aCallerSlowerThanTheRateWaitsOnlyTheRestAndGetsNoBurst() {
        DeletionPacer p = pacer(10);
        p.acquire();
        now += 40_000_000L;
        p.acquire();
        now += 1_000_000_000L;
        p.acquire();
        p.acquire();
        assertThat(waits).containsExactly(60_000_000L, 100_000_000L);
    }

    @Test
    void aRateThatIsNotPositiveIsRefused() {
        assertThatThrownBy(() -> pacer(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> pacer(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }
}
