package io.coffer.gateway.cli;

import io.coffer.gateway.config.EngineOpener;
import io.coffer.gateway.config.GatewayConfig;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ProgressListener;
import io.coffer.sdk.ReindexReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code coffer reindex}: rebuilds an empty metadata store from the backend; exit code 1 when a record is damaged. */
@Command(name = "reindex", mixinStandardHelpOptions = true,
        description = "Rebuild an empty metadata store from the backend alone; exits 1 when a backend record could not"
                + " be restored (each is listed).")
final class ReindexCommand extends EngineVerb {
    @Option(names = "--json", description = "Print one JSON object (dryRun, clean, buckets, objects, packs, chunks,"
            + " damaged) instead of text; no progress bar.")
    boolean json;

    @Option(names = "--dry-run", description = "Change nothing: rebuild into a scratch SQLite file in the temporary"
            + " directory (deleted afterwards) from a read-only backend, and report what would be restored. Runs"
            + " whether or not the metadata store is empty.")
    boolean dryRun;

    private Path scratch;

    @Override
    boolean rebuildsMetadata() {
        return true;
    }

    @Override
    boolean writesBackend() {
        return !dryRun;
    }

    @Override
    Coffer open(GatewayConfig c) {
        if (!dryRun) {
            return super.open(c);
        }
        try {
            scratch = Files.createTempDirectory("coffer-reindex-dry-run");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a scratch directory for the dry run: " + e.getMessage(), e);
        }
        return EngineOpener.openWithScratchMetadata(c, scratch.resolve("coffer.db"));
    }

    @Override
    void afterClose() {
        if (scratch == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(scratch)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the dry run's scratch directory " + scratch, e);
        }
    }

    @Override
    int run(Coffer coffer, PrintWriter out) {
        ProgressListener progress = progress("reindex", json);
        ReindexReport r;
        try {
            r = coffer.reindex(progress);
        } finally {
            TerminalProgress.finish(progress);
        }
        if (json) {
            out.println(ReportJson.reindex(r, dryRun));
        } else {
            String would = dryRun ? " (would be restored)" : "";
            out.printf("buckets%s: %d%nobjects%s: %d%npacks%s: %d%nchunks%s: %d%ndamaged: %d%n", would, r.buckets(),
                    would, r.objects(), would, r.packs(), would, r.chunks(), r.damaged().size());
            r.damaged().forEach(d -> out.println("DAMAGED " + d));
            out.println(r.clean() ? "clean" : "DAMAGE FOUND: the records above "
                    + (dryRun ? "would not be restored" : "were not restored"));
            if (dryRun) {
                out.println("dry run: nothing was changed");
            }
        }
        return r.clean() ? 0 : 1;
    }
}
