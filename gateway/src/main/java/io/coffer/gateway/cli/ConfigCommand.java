package io.coffer.gateway.cli;

import io.coffer.gateway.config.ConfigKey;
import io.coffer.gateway.config.GatewayConfig;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code coffer config check}: validates and prints the effective configuration, secrets redacted. */
@Command(name = "config", mixinStandardHelpOptions = true, description = "Configuration tools.",
        subcommands = ConfigCommand.Check.class)
final class ConfigCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Print the effective configuration (file < COFFER_* env < flags), secrets redacted.")
    static final class Check implements Callable<Integer> {
        @Mixin
        ConfigOptions config;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            GatewayConfig c = config.load(Map.<ConfigKey, String>of());
            spec.commandLine().getOut().print(c.describe());
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}
