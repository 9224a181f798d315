package io.coffer.gateway.cli;

import io.coffer.gateway.config.EngineOpener;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code coffer rotate-master-key}: makes a new master key the store's (docs/SECURITY.md, "Key rotation"). It opens
 * the store with the current key (the master-key setting or DATA/master.key), like the other offline verbs, while no
 * gateway on this data directory runs; gateways elsewhere keep running and are restarted with the new key file
 * afterwards.
 */
@Command(name = "rotate-master-key", mixinStandardHelpOptions = true,
        description = "Make a new master key the store's; the old one is wrapped under it, so old data stays readable.")
final class RotateMasterKeyCommand implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    @Option(names = "--new-key", paramLabel = "FILE", required = true,
            description = "The new master key file; made (mode 0600) if it does not exist.")
    Path newKey;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        String id = EngineOpener.rotateKey(config.load(Map.of()), newKey);
        out.printf("the store's master key is now %s (%s)%n", id, newKey.toAbsolutePath());
        out.println("start every gateway of this store with --master-key " + newKey.toAbsolutePath()
                + " (or put it in place of the old key file); the old key no longer opens the store");
        out.flush();
        return 0;
    }
}
