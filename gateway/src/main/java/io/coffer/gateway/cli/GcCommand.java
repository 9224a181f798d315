package io.coffer.gateway.cli;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.ProgressListener;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coffer gc}: one garbage-collection pass, or with {@code --dry-run} what one would do. */
@Command(name = "gc", mixinStandardHelpOptions = true,
        description = "Release dead space: rewrite sparse packs, delete retired and orphan blobs.")
final class GcCommand extends EngineVerb {
    @Option(names = "--json", description = "Print one JSON object (dryRun, packsRewritten, packsRetired, blobsDeleted,"
            + " bytesCopied, bytesFreed) instead of text.")
    boolean json;

    @Option(names = "--dry-run", description = "Change nothing (the backend is opened read-only): report what a pass"
            + " would rewrite, retire, delete and free now. Packs it retires are freed by a pass after the grace"
            + " period.")
    boolean dryRun;

    @Override
    boolean writesBackend() {
        return !dryRun;
    }

    @Override
    int run(Coffer coffer, PrintWriter out) {
        GcReport r;
        if (dryRun) {
            r = coffer.planGarbageCollection();
        } else {
            ProgressListener progress = progress("gc", json);
            try {
                r = coffer.collectGarbage(progress);
            } finally {
                TerminalProgress.finish(progress);
            }
        }
        if (json) {
            out.println(ReportJson.gc(r, dryRun));
        } else {
            String would = dryRun ? " (would be)" : "";
            out.printf("packs rewritten%s: %d%npacks retired%s: %d%nblobs deleted%s: %d%nbytes copied%s: %d%n"
                    + "bytes freed%s: %d%n", would, r.packsRewritten(), would, r.packsRetired(), would,
                    r.blobsDeleted(), would, r.bytesCopied(), would, r.bytesFreed());
            if (dryRun) {
                out.println("dry run: nothing was changed");
            }
        }
        return 0;
    }
}
