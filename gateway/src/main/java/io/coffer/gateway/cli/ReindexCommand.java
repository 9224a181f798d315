package io.coffer.gateway.cli;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.ReindexReport;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code coffer reindex}: rebuilds an empty metadata store from the backend. */
@Command(name = "reindex", mixinStandardHelpOptions = true,
        description = "Rebuild an empty metadata store from the backend alone.")
final class ReindexCommand extends EngineVerb {
    @Override
    int run(Coffer coffer, PrintWriter out) {
        ReindexReport r = coffer.reindex();
        out.printf("buckets: %d%nobjects: %d%npacks: %d%nchunks: %d%nskipped blobs: %d%n",
                r.buckets(), r.objects(), r.packs(), r.chunks(), r.skippedBlobs());
        return 0;
    }
}
