package io.coffer.gateway.release;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The launcher's processes that the kill ITs SIGKILL and restart on the same data ({@link GrowKills.Target}); the
 * PoR server also for ITs that stop and start it again ({@link PorServer#restart}).
 */
final class KillTargets {
    private KillTargets() {
    }

    /**
     * {@code ./coffer serve} with the flags given ({@code --por embedded ...}) in {@code dir}; a restart starts it
     * again on the same data (on new ports), keeping the killed one's log as {@code gateway-N.log}.
     */
    static final class EmbeddedGateway implements GrowKills.Target, AutoCloseable {
        private final Path dir;
        private final List<String> serve;
        private ShippedGateway gateway;
        private int restarts;

        EmbeddedGateway(Path dir, List<String> serve) throws Exception {
            this.dir = dir;
            this.serve = serve;
            this.gateway = ShippedGateway.start(dir, serve, Map.of());
        }

        @Override
        public ShippedGateway gateway() {
            return gateway;
        }

        @Override
        public void kill() throws Exception {
            gateway.kill();
        }

        @Override
        public void restart() throws Exception {
            // kept: the restarted gateway's log starts anew
            Files.copy(dir.resolve("gateway.log"), dir.resolve("gateway-" + ++restarts + ".log"));
            gateway = ShippedGateway.start(dir, serve, Map.of());
        }

        @Override
        public String restartedLog() {
            return gateway.output();
        }

        @Override
        public void close() throws InterruptedException {
            gateway.close();
        }
    }

    /**
     * {@code ./coffer por-server --data por --k K --block-size B} plus further flags in {@code work}, its logs
     * {@code por-server-N.log}; a restart starts it again on the same data and port.
     */
    static final class PorServer implements AutoCloseable {
        private final Path work;
        private final int k;
        private final int blockBytes;
        private final List<String> more;
        private final Map<String, String> env;
        private final int port;
        private Process process;
        private int starts;

        PorServer(Path work, int k, int blockBytes) throws Exception {
            this(work, k, blockBytes, List.of(), Map.of());
        }

        /** With {@code more} flags (a backend's) and {@code env} added to an environment cleared of COFFER_*. */
        PorServer(Path work, int k, int blockBytes, List<String> more, Map<String, String> env) throws Exception {
            this.work = work;
            this.k = k;
            this.blockBytes = blockBytes;
            this.more = List.copyOf(more);
            this.env = Map.copyOf(env);
            this.port = start(0);
        }

        /** Stops the server (as {@link #close}) and starts it again on the same data and port. */
        void restart() throws Exception {
            close();
            start(port);
        }

        /** The flags that attach a gateway to this server. */
        List<String> attach() {
            return List.of("--por", "127.0.0.1:" + port, "--por-key-file", work.resolve("por/session.key").toString());
        }

        /** The running process (the launcher execs java: this is the JVM). */
        Process process() {
            return process;
        }

        /** This server as the target, killed under {@code gateway}, which stays up and reconnects. */
        GrowKills.Target under(ShippedGateway gateway) {
            return new GrowKills.Target() {
                @Override
                public ShippedGateway gateway() {
                    return gateway;
                }

                @Override
                public void kill() throws Exception {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }

                @Override
                public void restart() throws Exception {
                    start(port);
                }

                @Override
                public String restartedLog() {
                    return GrowKills.read(log(starts - 1));
                }
            };
        }

        private Path log(int start) {
            return work.resolve("por-server-" + start + ".log");
        }

        private int start(int on) throws Exception {
            Path log = log(starts++);
            List<String> command = new ArrayList<>(List.of(ShippedGateway.REPOSITORY.resolve("coffer").toString(),
                    "por-server", "--data", "por", "--port", Integer.toString(on), "--k", Integer.toString(k),
                    "--block-size", Integer.toString(blockBytes)));
            command.addAll(more);
            ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            pb.environment().keySet().removeIf(e -> e.startsWith("COFFER_"));
            pb.environment().putAll(env);
            process = pb.start();
            return PorServerReleaseIT.awaitListening(process, log);
        }

        @Override
        public void close() throws InterruptedException {
            if (process != null) {
                process.destroy();
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }
}
