package io.coffer.gateway.cli;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.ReindexReport;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code coffer reindex}: rebuilds an empty metadata store from the backend; exit code 1 when a record is damaged. */
@Command(name = "reindex", mixinStandardHelpOptions = true,
        description = "Rebuild an empty metadata store from the backend alone; exits 1 when a backend record could not"
                + " be restored (each is listed).")
final class ReindexCommand extends EngineVerb {
    @Override
    boolean rebuildsMetadata() {
        return true;
    }

    @Override
    int run(Coffer coffer, PrintWriter out) {
        ReindexReport r = coffer.reindex();
        out.printf("buckets: %d%nobjects: %d%npacks: %d%nchunks: %d%ndamaged: %d%n",
                r.buckets(), r.objects(), r.packs(), r.chunks(), r.damaged().size());
        r.damaged().forEach(d -> out.println("DAMAGED " + d));
        out.println(r.clean() ? "clean" : "DAMAGE FOUND: the records above were not restored");
        return r.clean() ? 0 : 1;
    }
}
