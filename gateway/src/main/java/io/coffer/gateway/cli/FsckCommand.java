package io.coffer.gateway.cli;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.ProgressListener;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code coffer fsck}: verifies every manifest against the backend; exit code 1 when damage is found. It reads the
 * backend through a view that refuses writes, so it may run against a live deployment (docs/OPERATIONS.md).
 */
@Command(name = "fsck", mixinStandardHelpOptions = true,
        description = {"Check every object against the chunk index and the backend; exits 1 when data is damaged.",
            "The backend is opened read-only: fsck may run while gateways serve the same PostgreSQL and backend"
                + " (give it a data directory of its own and the store's --master-key FILE)."})
final class FsckCommand extends EngineVerb {
    @Option(names = "--read-data", description = "Also read, decrypt and verify every chunk.")
    boolean readData;

    @Option(names = "--json", description = "Print one JSON object (clean, readData, objectsChecked, chunksChecked,"
            + " bytesRead, damaged, orphans) instead of text; no progress bar.")
    boolean json;

    @Override
    boolean writesBackend() {
        return false;
    }

    @Override
    int run(Coffer coffer, PrintWriter out) {
        ProgressListener progress = progress("fsck", json);
        FsckReport r;
        try {
            r = coffer.fsck(readData, progress);
        } finally {
            TerminalProgress.finish(progress);
        }
        if (json) {
            out.println(ReportJson.fsck(r, readData));
        } else {
            out.printf("objects checked: %d%nchunks checked: %d%nbytes read: %d%ndamaged: %d%norphans: %d%n",
                    r.objectsChecked(), r.chunksChecked(), r.bytesRead(), r.damaged().size(), r.orphans().size());
            r.damaged().forEach(d -> out.println("DAMAGED " + d));
            r.orphans().forEach(o -> out.println("orphan " + o));
            out.println(r.clean() ? "clean" : "DAMAGE FOUND");
        }
        return r.clean() ? 0 : 1;
    }
}
