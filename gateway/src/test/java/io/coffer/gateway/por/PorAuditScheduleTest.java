package io.coffer.gateway.por;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.config.EngineOpener;
import io.coffer.gateway.config.OpenStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve}'s scheduled audits: they run on their own, are counted, and stop when the schedule is closed. */
class PorAuditScheduleTest {
    @TempDir
    Path dir;

    private static double audits(SimpleMeterRegistry registry, String result) {
        return registry.get("coffer.por.audits").tag("result", result).counter().count();
    }

    @Test
    void auditsRunEveryIntervalUntilTheScheduleIsClosed() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (OpenStore s = EngineOpener.openStore(EmbeddedPorStore.config(dir.resolve("data"), Map.of()), registry)) {
            EmbeddedPorStore.fill(s.coffer(), 4);
            PorService service = new PorService(s.por().orElseThrow(), registry, Clock.systemUTC());
            try (PorAuditSchedule schedule = PorAuditSchedule.start(service, Duration.ofMillis(200))) {
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (audits(registry, "passed") < 2 && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(audits(registry, "passed")).as("two scheduled audits within a minute")
                        .isGreaterThanOrEqualTo(2.0);
            }
            double afterClose = audits(registry, "passed");
            Thread.sleep(600);
            assertThat(audits(registry, "passed")).as("no audit after close").isEqualTo(afterClose);
            assertThat(audits(registry, "failed")).as("closing lets a running audit finish").isZero();
            assertThat(registry.get("coffer.por.last.audit.passed").gauge().value()).isEqualTo(1.0);
        }
    }

    @Test
    void anIntervalOfZeroIsNotASchedule() {
        assertThatThrownBy(() -> PorAuditSchedule.start(null, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
