package io.coffer.gateway.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code coffer}: the S3 gateway and its administration verbs. */
@Command(name = "coffer", mixinStandardHelpOptions = true, version = "coffer 0.1.0",
        description = "S3-compatible gateway that chunks, encrypts and deduplicates objects.",
        subcommands = {ServeCommand.class, ConfigCommand.class, FsckCommand.class, GcCommand.class,
            ReindexCommand.class, KeyServerVerb.class, HealthCommand.class, CommandLine.HelpCommand.class})
public final class CofferCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns the exit code (for tests and embedding). */
    public static int execute(String... args) {
        CommandLine cl = commandLine();
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("coffer: " + e.getMessage());
            return 2;
        });
        return cl.execute(args);
    }

    /** The command line, with {@code keyserver} handing every later argument, options included, to the key server. */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new CofferCommand());
        cl.getSubcommands().get("keyserver").setUnmatchedOptionsArePositionalParams(true);
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
