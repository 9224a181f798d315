package io.coffer.gateway.cli;

import io.coffer.keyserver.server.KeyServerCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code coffer keyserver ...}: the key server's own command line ({@code init}, {@code issue-client},
 * {@code rotate-key}, {@code serve}, see {@link KeyServerCommand}), which parses every argument after the verb.
 */
@Command(name = "keyserver", description = "Key server: init, issue-client, rotate-key, serve (coffer keyserver --help).")
final class KeyServerVerb implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "ARGS", description = "Passed to the key server's command line.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
        return KeyServerCommand.run(args.toArray(String[]::new), System.out, System.err);
    }
}
