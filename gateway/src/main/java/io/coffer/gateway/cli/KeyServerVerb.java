package io.coffer.gateway.cli;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer keyserver ...}: the key server's own command line ({@code init}, {@code issue-client},
 * {@code rotate-key}, {@code serve}), {@code io.coffer.keyserver.server.KeyServerCommand}, which parses every
 * argument after the verb itself.
 */
@Command(name = "keyserver", description = "Key server: init, issue-client, rotate-key, serve (coffer keyserver --help).")
final class KeyServerVerb implements Callable<Integer> {
    static final String KEY_SERVER_COMMAND = "io.coffer.keyserver.server.KeyServerCommand";

    @Parameters(arity = "0..*", paramLabel = "ARGS", description = "Passed to the key server's command line.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
        return run(args.toArray(String[]::new), System.out, System.err);
    }

    /** Runs {@code KeyServerCommand.run(args, out, err)} and returns its exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        Method run;
        try {
            run = Class.forName(KEY_SERVER_COMMAND).getMethod("run", String[].class, PrintStream.class,
                    PrintStream.class);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            err.println("coffer: this build has no key server command line (" + KEY_SERVER_COMMAND
                    + ".run(String[], PrintStream, PrintStream) is missing from module keyserver)");
            return 2;
        }
        try {
            return (Integer) run.invoke(null, (Object) args, out, err);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
