package io.coffer.gateway.cli;

import io.coffer.gateway.config.EngineOpener;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.FsckReport;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code coffer fsck}: verifies every manifest against the backend; exit code 1 when damage is found. */
@Command(name = "fsck", mixinStandardHelpOptions = true,
        description = "Check every object against the chunk index and the backend; exits 1 when data is damaged.")
final class FsckCommand implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    @Option(names = "--read-data", description = "Also read, decrypt and verify every chunk.")
    boolean readData;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (Coffer coffer = EngineOpener.open(config.load(Map.of()), null)) {
            FsckReport r = coffer.fsck(readData);
            PrintWriter out = spec.commandLine().getOut();
            out.printf("objects checked: %d%nchunks checked: %d%nbytes read: %d%ndamaged: %d%norphans: %d%n",
                    r.objectsChecked(), r.chunksChecked(), r.bytesRead(), r.damaged().size(), r.orphans().size());
            r.damaged().forEach(d -> out.println("DAMAGED " + d));
            r.orphans().forEach(o -> out.println("orphan " + o));
            out.println(r.clean() ? "clean" : "DAMAGE FOUND");
            out.flush();
            return r.clean() ? 0 : 1;
        }
    }
}
