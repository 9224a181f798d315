package io.coffer.gateway.cli;

import io.coffer.gateway.config.EngineOpener;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.GcReport;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code coffer gc}: one garbage-collection pass. */
@Command(name = "gc", mixinStandardHelpOptions = true,
        description = "Release dead space: rewrite sparse packs, delete retired and orphan blobs.")
final class GcCommand implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (Coffer coffer = EngineOpener.open(config.load(Map.of()), null)) {
            GcReport r = coffer.collectGarbage();
            spec.commandLine().getOut().printf("packs rewritten: %d%npacks retired: %d%nblobs deleted: %d%n"
                    + "bytes copied: %d%nbytes freed: %d%n", r.packsRewritten(), r.packsRetired(), r.blobsDeleted(),
                    r.bytesCopied(), r.bytesFreed());
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}
