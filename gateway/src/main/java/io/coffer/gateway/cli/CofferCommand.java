package io.coffer.gateway.cli;

import io.coffer.gateway.crypto.NativeCrypto;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code coffer}: the S3 gateway and its administration verbs. */
@Command(name = "coffer", mixinStandardHelpOptions = true, version = "coffer 0.1.0",
        description = "S3-compatible gateway that chunks, encrypts and deduplicates objects.",
        subcommands = {ServeCommand.class, ConfigCommand.class, FsckCommand.class, GcCommand.class,
            LifecycleCommand.class,
            ReindexCommand.class, StatsCommand.class, AuditCommand.class, RepairCommand.class, ConsolidateCommand.class,
            KeyServerVerb.class,
            HealthCommand.class, PorServerCommand.class, RotateMasterKeyCommand.class, BucketVerb.class,
            CommandLine.HelpCommand.class})
public final class CofferCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Logback's console target ({@code logback.xml}): -Dcoffer.log.target=System.err overrides it. */
    static final String LOG_TARGET = "coffer.log.target";

    public static void main(String[] args) {
        if (System.getProperty(LOG_TARGET) == null) {
            System.setProperty(LOG_TARGET, runsAServer(args) ? "System.out" : "System.err");
        }
        if (args.length > 0 && args[0].equals("serve")) {
            // the gateway process only: in-process callers of execute() keep their JVM's provider order
            try {
                NativeCrypto.installFromSettings();
            } catch (IllegalArgumentException e) {
                System.err.println("coffer: " + e.getMessage());
                System.exit(2);
            }
        }
        System.exit(execute(args));
    }

    /**
     * Servers log to stdout, as services in containers and under systemd are expected to; every other verb logs to
     * stderr, so that what it prints on stdout (a report, the configuration) can be piped or parsed.
     */
    static boolean runsAServer(String... args) {
        return args.length > 0 && (args[0].equals("serve") || args[0].equals("por-server")
                || args[0].equals("keyserver") && args.length > 1 && args[1].equals("serve"));
    }

    /** Runs the command line and returns the exit code (for tests and embedding). */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /**
     * The command line, with {@code keyserver} handing every later argument, options included, to the key server; a
     * verb that fails prints its message and exits 2.
     */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new CofferCommand());
        cl.getSubcommands().get("keyserver").setUnmatchedOptionsArePositionalParams(true);
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("coffer: " + e.getMessage());
            return 2;
        });
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
