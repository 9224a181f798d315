package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.LeaseHeldException;
import io.coffer.sdk.MaintenanceLease;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A maintenance job's lease (the lifecycle sweep's) is the gc lease mechanism under the job's own name: refused while
 * another process holds it, its own row apart from gc's, given back on close.
 */
class MaintenanceLeaseTest {
    @TempDir
    Path dir;

    @Test
    void aJobsLeaseIsRefusedWhileAnotherProcessHoldsItAndIsApartFromGcs() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.gcGrace(Duration.ZERO))) {
            Instant now = Instant.now();
            e.meta.acquireLease("lifecycle", "other-gateway", now, now.plusSeconds(60));

            assertThatThrownBy(() -> e.coffer.takeMaintenanceLease("lifecycle"))
                    .isInstanceOfSatisfying(LeaseHeldException.class, x -> {
                        assertThat(x.holder()).isEqualTo("other-gateway");
                        assertThat(x.getMessage()).startsWith("lifecycle is running on other-gateway");
                    });
            e.coffer.collectGarbage(); // gc's lease is another row

            e.meta.releaseLease("lifecycle", "other-gateway");
            try (MaintenanceLease lease = e.coffer.takeMaintenanceLease("lifecycle")) {
                lease.renewIfDue();
                Instant later = Instant.now();
                assertThat(e.meta.acquireLease("lifecycle", "third", later, later.plusSeconds(60)).holder())
                        .isNotEqualTo("third");
            }
            Instant after = Instant.now();
            assertThat(e.meta.acquireLease("lifecycle", "third", after, after.plusSeconds(60)).holder())
                    .as("closing gives the lease back").isEqualTo("third");
        }
    }

    @Test
    void gcsOwnNameAndABlankNameAreRefused() throws Exception {
        try (TestEngine e = TestEngine.open(dir, b -> b.gcGrace(Duration.ZERO))) {
            assertThatThrownBy(() -> e.coffer.takeMaintenanceLease("gc")).isInstanceOf(CofferException.class);
            assertThatThrownBy(() -> e.coffer.takeMaintenanceLease(" ")).isInstanceOf(CofferException.class);
        }
    }
}
