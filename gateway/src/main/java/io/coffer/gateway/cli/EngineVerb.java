package io.coffer.gateway.cli;

import io.coffer.gateway.config.EngineOpener;
import io.coffer.sdk.Coffer;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;

/** An admin verb that opens the engine on the configured data, runs once, prints a report and closes it. */
abstract class EngineVerb implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Runs the verb on an open engine and returns the exit code. */
    abstract int run(Coffer coffer, PrintWriter out);

    @Override
    public final Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (Coffer coffer = EngineOpener.open(config.load(Map.of()), null)) {
            return run(coffer, out);
        } finally {
            out.flush();
        }
    }
}
