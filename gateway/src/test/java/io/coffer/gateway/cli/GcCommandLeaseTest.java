package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code coffer gc} takes the store's gc lease: while a gateway holds it, it does nothing and says who has it. */
class GcCommandLeaseTest {
    @TempDir
    Path dir;

    @Test
    void gcRefusesWhileAGatewayHoldsTheLeaseAndRunsOnceItIsGiven() {
        Path data = dir.resolve("data");
        Coffer.builder().directory(data).build().close();
        try (JdbcMetadataStore meta = JdbcMetadataStore.sqlite(data.resolve("coffer.db"))) {
            Instant now = Instant.now();
            meta.acquireLease("gc", "gateway-b", now, now.plusSeconds(60));

            String refused = run("gc", "--data", data.toString());

            assertThat(refused).startsWith("2\n").contains("garbage collection is running on gateway-b")
                    .contains("nothing was done");
            meta.releaseLease("gc", "gateway-b");
        }
        assertThat(run("gc", "--data", data.toString())).startsWith("0\n").contains("packs rewritten: 0");
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cl = CofferCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(out));
        int rc = cl.execute(args);
        return rc + "\n" + out;
    }
}
