package io.coffer.gateway.cli;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.FsckReport;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coffer fsck}: verifies every manifest against the backend; exit code 1 when damage is found. */
@Command(name = "fsck", mixinStandardHelpOptions = true,
        description = "Check every object against the chunk index and the backend; exits 1 when data is damaged.")
final class FsckCommand extends EngineVerb {
    @Option(names = "--read-data", description = "Also read, decrypt and verify every chunk.")
    boolean readData;

    @Override
    boolean writesBackend() {
        return false;
    }

    @Override
    int run(Coffer coffer, PrintWriter out) {
        FsckReport r = coffer.fsck(readData);
        out.printf("objects checked: %d%nchunks checked: %d%nbytes read: %d%ndamaged: %d%norphans: %d%n",
                r.objectsChecked(), r.chunksChecked(), r.bytesRead(), r.damaged().size(), r.orphans().size());
        r.damaged().forEach(d -> out.println("DAMAGED " + d));
        r.orphans().forEach(o -> out.println("orphan " + o));
        out.println(r.clean() ? "clean" : "DAMAGE FOUND");
        return r.clean() ? 0 : 1;
    }
}
