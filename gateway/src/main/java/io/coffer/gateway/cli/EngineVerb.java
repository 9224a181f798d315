package io.coffer.gateway.cli;

import io.coffer.gateway.config.EngineOpener;
import io.coffer.gateway.config.GatewayConfig;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ProgressListener;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;

/**
 * An admin verb that opens the engine on the configured data, runs once, prints a report and closes it. It opens only
 * an existing store (it never creates a data directory or a master key) and holds the data directory's lock while it
 * runs, so it refuses to run beside a gateway or another verb on the same directory.
 */
abstract class EngineVerb implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Runs the verb on an open engine and returns the exit code. */
    abstract int run(Coffer coffer, PrintWriter out);

    /** True for a verb that rebuilds lost metadata, so it runs where the metadata store is missing. */
    boolean rebuildsMetadata() {
        return false;
    }

    /** False for a verb that only checks, so the engine it opens cannot write or delete on the backend. */
    boolean writesBackend() {
        return true;
    }

    /** Opens the engine the verb runs on: the configured store, read-only where the verb only checks. */
    Coffer open(GatewayConfig c) {
        return EngineOpener.openExisting(c, !rebuildsMetadata(), !writesBackend());
    }

    /** Runs after the engine is closed, whatever happened (to remove what {@link #open} made for the run). */
    void afterClose() {
    }

    /** A progress bar on standard error where the verb runs on a terminal and prints text; else nothing drawn. */
    static ProgressListener progress(String task, boolean json) {
        return TerminalProgress.forTerminal(task, json, ServeCommand.interactiveTerminal(), System.err);
    }

    @Override
    public final Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (Coffer coffer = open(config.load(Map.of()))) {
            return run(coffer, out);
        } finally {
            out.flush();
            afterClose();
        }
    }
}
