package io.coffer.gateway.cli;

import io.coffer.gateway.config.EngineOpener;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ReindexReport;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code coffer reindex}: rebuilds an empty metadata store from the backend. */
@Command(name = "reindex", mixinStandardHelpOptions = true,
        description = "Rebuild an empty metadata store from the backend alone.")
final class ReindexCommand implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (Coffer coffer = EngineOpener.open(config.load(Map.of()), null)) {
            ReindexReport r = coffer.reindex();
            spec.commandLine().getOut().printf("buckets: %d%nobjects: %d%npacks: %d%nchunks: %d%nskipped blobs: %d%n",
                    r.buckets(), r.objects(), r.packs(), r.chunks(), r.skippedBlobs());
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}
