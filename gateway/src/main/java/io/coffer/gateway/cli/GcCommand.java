package io.coffer.gateway.cli;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.GcReport;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code coffer gc}: one garbage-collection pass. */
@Command(name = "gc", mixinStandardHelpOptions = true,
        description = "Release dead space: rewrite sparse packs, delete retired and orphan blobs.")
final class GcCommand extends EngineVerb {
    @Override
    int run(Coffer coffer, PrintWriter out) {
        GcReport r = coffer.collectGarbage();
        out.printf("packs rewritten: %d%npacks retired: %d%nblobs deleted: %d%nbytes copied: %d%nbytes freed: %d%n",
                r.packsRewritten(), r.packsRetired(), r.blobsDeleted(), r.bytesCopied(), r.bytesFreed());
        return 0;
    }
}
