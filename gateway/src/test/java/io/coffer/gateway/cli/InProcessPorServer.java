package io.coffer.gateway.cli;

import io.coffer.por.net.PorKeyFile;
import io.coffer.por.net.RemotePorServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/** {@code coffer por-server ARGS} run on a thread of the test's JVM: its port once listening, its output, its exit. */
record InProcessPorServer(PorServerCommand command, CompletableFuture<Integer> exit, int port, StringWriter out) {

    /** Starts the command with {@code env} as its environment and waits until it listens. */
    static InProcessPorServer start(Map<String, String> env, String... args) throws InterruptedException {
        PorServerCommand command = new PorServerCommand();
        command.env = env::get;
        CommandLine cl = new CommandLine(command);
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cl.execute(args));
        return new InProcessPorServer(command, exit, command.awaitStarted(), out);
    }

    /** A client session with the server on {@code port} whose data directory (and session key) is {@code data}. */
    static RemotePorServer connect(Path data, int port) throws Exception {
        byte[] key = PorKeyFile.load(data.resolve(PorServerCommand.KEY_FILE));
        return RemotePorServer.connect(new InetSocketAddress("127.0.0.1", port), key, Duration.ofSeconds(30));
    }

    /** Stops the server; its exit status. */
    int stop() throws Exception {
        command.stop();
        return exit.get(30, TimeUnit.SECONDS);
    }
}
