package io.coffer.gateway.release;

import static io.coffer.gateway.release.PorShrinkScenario.BLOCK_BYTES;
import static io.coffer.gateway.release.PorShrinkScenario.INITIAL_K;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PoR store shrinks (appendix A.3, consolidation) as an operator sees it ({@link PorShrinkScenario}):
 * {@code ./coffer serve --por embedded --por-k 6} (64 blocks of 16 KiB) grows to hold five fillers of 4 MiB and a kept
 * object of 15 MiB put last with aws-cli; the fillers are deleted, gc frees their packs, and
 * {@code POST /admin/por/consolidate} moves the kept object's packs below the smaller capacity while aws-cli downloads
 * it back to back (each download exits 0, byte-exact); the server's parameters record the smaller k, the live and the
 * offline {@code ./coffer audit} pass, and the kept object reads back byte-exact from a restarted gateway.
 */
class PorShrinkReleaseIT {
    @TempDir
    Path work;

    @Test
    void aGrownEmbeddedStoreShrinksWhileADownloadReadsTheObjectItMovesAndAuditsPass() throws Exception {
        Path gatewayDir = Files.createDirectories(work.resolve("gateway"));
        List<String> serve = new ArrayList<>(List.of("--por", "embedded", "--por-k", Integer.toString(INITIAL_K),
                "--por-block-size", Integer.toString(BLOCK_BYTES)));
        serve.addAll(PorShrinkScenario.GC_OPTIONS);
        List<String> store = List.of("--por", "embedded"); // the verbs open the store as it is
        PorShrinkScenario scenario = new PorShrinkScenario(work, gatewayDir,
                gatewayDir.resolve("data/por/server/parameters"), 4L << 20, 15L << 20);

        scenario.growDeleteAndConsolidateWhileDownloading(serve, store, Map.of());

        scenario.auditOfflineAndReadBackAfterARestart(serve, store, Map.of());
    }
}
