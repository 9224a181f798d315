package io.coffer.gateway.por;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.blob.PorAuditReport;
import io.coffer.por.blob.PorRepairReport;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The repaired-blocks metric counts what repairs wrote back and what reads repaired on the way. */
class PorServiceTest {
    @Test
    void repairedBlocksCountRepairsAndReadsThatRepairedOnTheWay() {
        AtomicLong onRead = new AtomicLong();
        PorControl control = new PorControl() {
            @Override
            public PorAuditReport audit() {
                throw new AssertionError("not audited here");
            }

            @Override
            public PorRepairReport repair() {
                return new PorRepairReport(100, 7, 6, List.of(42), Duration.ofMillis(3));
            }

            @Override
            public int blocksUsed() {
                return 100;
            }

            @Override
            public int capacity() {
                return 1024;
            }

            @Override
            public long blocksRepairedOnRead() {
                return onRead.get();
            }
        };
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        PorService service = new PorService(control, registry, Clock.systemUTC());
        assertThat(repaired(registry)).isZero();
        onRead.set(3); // three blocks repaired by reads
        assertThat(repaired(registry)).isEqualTo(3.0);
        service.repair();
        assertThat(repaired(registry)).isEqualTo(9.0);
        onRead.addAndGet(2);
        assertThat(repaired(registry)).isEqualTo(11.0);
    }

    private static double repaired(SimpleMeterRegistry registry) {
        return registry.get("coffer.por.repaired.blocks").functionCounter().count();
    }
}
