package io.coffer.keyserver.server;

import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.OprfPublicKey;
import io.coffer.keyserver.oprf.RsaOprfPublicKey;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.ratelimit.RateLimitSpec;
import io.coffer.keyserver.transport.AdminHttpServer;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The key server's command line: {@code init}, {@code issue-client}, {@code rotate-key} and {@code serve}.
 * The gateway's {@code ./coffer keyserver ...} delegates to {@link #run}. Exit codes: 0 success, 2 usage
 * error (unknown verb or option, bad value), 1 failure (with a one-line message on the error stream).
 */
public final class KeyServerCommand {
    /** Exit code of a successful command. */
    public static final int OK = 0;
    /** Exit code of a command that failed (I/O, key material, ports in use ...). */
    public static final int FAILURE = 1;
    /** Exit code of a command line that could not be understood. */
    public static final int USAGE = 2;

    private KeyServerCommand() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs one verb. {@code serve} returns only once the server has stopped: on SIGTERM/SIGINT (through a
     * shutdown hook) or when the calling thread is interrupted.
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine cl = new CommandLine(new Root())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true));
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("error: " + describe(ex));
            commandLine.getErr().flush();
            return FAILURE;
        });
        cl.setParameterExceptionHandler((ex, args1) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("error: " + ex.getMessage());
            c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for more information.");
            c.getErr().flush();
            return USAGE;
        });
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    private static String describe(Exception ex) {
        if (ex instanceof NoSuchFileException) {
            return "no such file: " + ex.getMessage();
        }
        String msg = ex.getMessage();
        return msg == null || msg.isBlank() ? ex.getClass().getSimpleName() : msg;
    }

    /** OPRF key kinds on the command line. */
    enum Algorithm {
        RSA, P256;

        KeyServerInit.OprfAlgorithm oprf() {
            return this == RSA ? KeyServerInit.OprfAlgorithm.RSA : KeyServerInit.OprfAlgorithm.P256;
        }
    }

    @Command(name = "keyserver", mixinStandardHelpOptions = true, version = "coffer keyserver 0.1",
            description = "Coffer key server: DupLESS RSA-OPRF and RFC 9497 P-256 VOPRF over HTTPS (OPRFv1) and UDP (OPRFv2).",
            subcommands = {Init.class, IssueClient.class, RotateKey.class, Serve.class})
    static final class Root implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            throw new ParameterException(spec.commandLine(), "missing verb: one of init, issue-client, rotate-key, serve");
        }
    }

    @Command(name = "init", mixinStandardHelpOptions = true,
            description = "Create a key-server directory: private CA, server certificate, OPRF key and the client certificate 'gateway'.")
    static final class Init implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "DIR", description = "Directory to create (may exist if empty of key material).")
        Path dir;

        @Option(names = "--algorithm", paramLabel = "rsa|p256", defaultValue = "rsa",
                description = "OPRF: rsa (DupLESS RSA-OPRF) or p256 (RFC 9497 P256-SHA256 VOPRF). Default: ${DEFAULT-VALUE}.")
        Algorithm algorithm;

        @Option(names = "--rsa-bits", paramLabel = "BITS", defaultValue = "2048",
                description = "RSA modulus: 2048 (default), 3072 or 4096; 1024 for comparisons only.")
        int rsaBits;

        @Option(names = "--server-name", paramLabel = "NAME", arity = "1..*",
                description = "Extra DNS name or IP address for the server certificate (localhost and 127.0.0.1 are always in).")
        List<String> serverNames = new ArrayList<>();

        @Option(names = "--if-missing",
                description = "Exit 0 and change nothing when DIR is initialised already (for one-shot containers, which have no shell to test first).")
        boolean ifMissing;

        @Override
        public Integer call() throws Exception {
            checkRsaBits(spec, rsaBits);
            if (ifMissing && Files.exists(new KeyServerDirectory(dir).caCertificate())) {
                spec.commandLine().getOut().println("key server directory " + dir.toAbsolutePath() + " is initialised already; nothing changed");
                return OK;
            }
            KeyServerInit.Options o = new KeyServerInit.Options().algorithm(algorithm.oprf()).rsaBits(rsaBits).client("gateway");
            for (String n : serverNames) {
                o.serverName(n);
            }
            createPrivateDirectory(dir);
            KeyServerDirectory d = KeyServerInit.create(dir, o);
            KeyId id = d.currentKeyId();
            PrintWriter out = spec.commandLine().getOut();
            List<String> names = new ArrayList<>(List.of("localhost", "127.0.0.1"));
            names.addAll(serverNames);
            out.println("initialised key server directory " + dir.toAbsolutePath());
            out.println("  ca.crt, ca.key                     private CA (ECDSA P-256)");
            out.println("  server.crt, server.key             TLS server certificate for " + String.join(", ", names));
            out.println("  clients/gateway.crt, gateway.key   client certificate CN=gateway");
            out.println(String.format("  %-34s %s", "oprf/" + id.toHex() + ".key, .pub", "OPRF key " + describeKey(d.loadOprfPublicKey(id))));
            out.println("  oprf/CURRENT                       current key id");
            out.println("private keys are readable by the owner only (0600)");
            out.println("key id " + id.toHex());
            return OK;
        }
    }

    @Command(name = "issue-client", mixinStandardHelpOptions = true,
            description = "Issue a client certificate CN=NAME signed by the directory's CA (clients/NAME.crt, clients/NAME.key).")
    static final class IssueClient implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Key-server directory.")
        Path dir;

        @Option(names = "--validity-days", paramLabel = "DAYS", defaultValue = "730", description = "Certificate validity. Default: ${DEFAULT-VALUE}.")
        int validityDays;

        @Parameters(index = "0", paramLabel = "NAME", description = "Client name: letters, digits, '.', '_', '-' (at most 64).")
        String name;

        @Override
        public Integer call() throws Exception {
            if (validityDays < 1) {
                throw new ParameterException(spec.commandLine(), "--validity-days must be positive");
            }
            KeyServerDirectory d = existing(dir);
            try {
                d.clientKey(name);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "invalid client name '" + name + "': " + e.getMessage());
            }
            KeyServerInit.issueClient(d, name, Duration.ofDays(validityDays));
            PrintWriter out = spec.commandLine().getOut();
            out.println("issued client certificate CN=" + name + ", valid " + validityDays + " days");
            out.println("  " + d.clientCertificate(name));
            out.println("  " + d.clientKey(name) + " (0600)");
            out.println("clients also need " + d.caCertificate() + " and oprf/" + d.currentKeyId().toHex() + ".pub");
            return OK;
        }
    }

    @Command(name = "rotate-key", mixinStandardHelpOptions = true,
            description = "Create a new OPRF key and make it current; old keys stay and keep answering queries that name them "
                    + "(a running server picks the new key up when restarted).")
    static final class RotateKey implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Key-server directory.")
        Path dir;

        @Option(names = "--algorithm", paramLabel = "rsa|p256", description = "OPRF of the new key (default: that of the current key).")
        Algorithm algorithm;

        @Option(names = "--rsa-bits", paramLabel = "BITS",
                description = "RSA modulus: 2048, 3072 or 4096 (1024 for comparisons; default: that of the current RSA key, else 2048).")
        Integer rsaBits;

        @Override
        public Integer call() throws Exception {
            if (rsaBits != null) {
                checkRsaBits(spec, rsaBits);
            }
            KeyServerDirectory d = existing(dir);
            KeyId old = d.currentKeyId();
            OprfPublicKey current = d.loadOprfPublicKey(old);
            boolean currentRsa = current instanceof RsaOprfPublicKey;
            Algorithm alg = algorithm != null ? algorithm : currentRsa ? Algorithm.RSA : Algorithm.P256;
            int bits = rsaBits != null ? rsaBits : currentRsa ? ((RsaOprfPublicKey) current).modulus().bitLength() : 2048;
            KeyId id = KeyServerInit.rotateKey(d, alg.oprf(), bits);
            PrintWriter out = spec.commandLine().getOut();
            out.println("new OPRF key " + describeKey(d.loadOprfPublicKey(id)) + " is current; previous key " + old.toHex() + " kept");
            out.println("clients must pin oprf/" + id.toHex() + ".pub; restart the server to serve the new key");
            out.println("key id " + id.toHex());
            return OK;
        }
    }

    @Command(name = "serve", mixinStandardHelpOptions = true,
            description = "Serve OPRFv1 (HTTPS, mutual TLS) and OPRFv2 (KSInit + UDP) until SIGTERM or SIGINT.")
    static final class Serve implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Key-server directory.")
        Path dir;

        @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "127.0.0.1",
                description = "Address for both ports (0.0.0.0 to serve other machines). Default: ${DEFAULT-VALUE}.")
        String bind;

        @Option(names = "--https-port", paramLabel = "N", defaultValue = "8443", description = "OPRFv1/KSInit port, 0 = ephemeral. Default: ${DEFAULT-VALUE}.")
        int httpsPort;

        @Option(names = "--udp-port", paramLabel = "N", defaultValue = "8444", description = "OPRFv2 port, 0 = ephemeral. Default: ${DEFAULT-VALUE}.")
        int udpPort;

        @Option(names = "--rate-limit", paramLabel = "SPEC", defaultValue = "bounded:q=1000000,epoch=1h",
                description = "none | bounded:q=Q,epoch=D | fixed:delay=D | exp:initial=D,max=D,epoch=D. Default: ${DEFAULT-VALUE}.")
        String rateLimit;

        @Option(names = "--workers", paramLabel = "N", description = "Threads evaluating OPRFs (default: available processors).")
        Integer workers;

        @Option(names = "--max-batch", paramLabel = "N", defaultValue = "256", description = "Most elements per query (1..4096). Default: ${DEFAULT-VALUE}.")
        int maxBatch;

        @Option(names = "--max-queue-delay-ms", paramLabel = "MS", defaultValue = "250",
                description = "Queries that waited longer for a worker are dropped unevaluated (overload), 1..60000. Default: ${DEFAULT-VALUE}.")
        int maxQueueDelayMs;

        @Option(names = "--max-sessions-per-client", paramLabel = "N", defaultValue = "16",
                description = "Most live OPRFv2 sessions one client certificate may hold; more KSInits get 429. Default: ${DEFAULT-VALUE}.")
        int maxSessionsPerClient;

        @Option(names = "--max-connections-per-client", paramLabel = "N", defaultValue = "256",
                description = "Most open HTTPS connections one client certificate may hold; requests on more get 429. Default: ${DEFAULT-VALUE}.")
        int maxConnectionsPerClient;

        @Option(names = "--admin-port", paramLabel = "N", defaultValue = "-1",
                description = "Plain-HTTP port for /health/live, /health/ready and /metrics (no client certificate);"
                        + " 0 = ephemeral; default: none.")
        int adminPort;

        @Option(names = "--admin-bind", paramLabel = "ADDR", defaultValue = "127.0.0.1",
                description = "Address of the admin port; it is unauthenticated. Default: ${DEFAULT-VALUE}.")
        String adminBind;

        @Override
        public Integer call() throws Exception {
            checkPort(spec, "--https-port", httpsPort);
            if (maxSessionsPerClient < 1 || maxConnectionsPerClient < 1) {
                throw new ParameterException(spec.commandLine(),
                        "--max-sessions-per-client and --max-connections-per-client must be positive");
            }
            checkPort(spec, "--udp-port", udpPort);
            if (adminPort != -1) {
                checkPort(spec, "--admin-port", adminPort);
            }
            try {
                RateLimitSpec.parse(rateLimit);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            if (workers != null && workers < 1) {
                throw new ParameterException(spec.commandLine(), "--workers must be positive");
            }
            if (maxBatch < 1 || maxBatch > 4096) {
                throw new ParameterException(spec.commandLine(), "--max-batch must be in 1..4096");
            }
            if (maxQueueDelayMs < 1 || maxQueueDelayMs > 60_000) {
                throw new ParameterException(spec.commandLine(), "--max-queue-delay-ms must be in 1..60000");
            }
            KeyServerDirectory d = existing(dir);
            KeyServer.Builder b = KeyServer.builder().directory(d.root()).bindAddress(bind).httpsPort(httpsPort).udpPort(udpPort)
                    .rateLimit(rateLimit).maxBatch(maxBatch).maxQueueDelay(Duration.ofMillis(maxQueueDelayMs))
                    .maxSessionsPerClient(maxSessionsPerClient).maxConnectionsPerClient(maxConnectionsPerClient);
            if (workers != null) {
                b.workerThreads(workers);
            }
            PrintWriter out = spec.commandLine().getOut();
            KeyServer ks;
            try {
                ks = b.start();
            } catch (BindException e) {
                throw new IOException("cannot bind " + bind + " (https " + httpsPort + ", udp " + udpPort + "): " + e.getMessage(), e);
            }
            CountDownLatch stopRequested = new CountDownLatch(1);
            CountDownLatch stopped = new CountDownLatch(1);
            Thread hook = new Thread(() -> {
                stopRequested.countDown();
                try {
                    stopped.await(15, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "ks-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            out.println("key server on " + bind + ": https port " + ks.httpsPort() + ", udp port " + ks.udpPort());
            AdminHttpServer admin = null;
            if (adminPort >= 0) {
                try {
                    admin = AdminHttpServer.start(adminBind, adminPort, ks.metrics().registry(), ks::isRunning);
                } catch (IOException | RuntimeException e) {
                    ks.stop();
                    throw e;
                }
                out.println("admin port " + admin.port() + " on " + adminBind + ": /health/live, /health/ready,"
                        + " /metrics");
            }
            out.println("key id " + ks.currentKeyId().toHex() + ", rate limit " + rateLimit);
            out.println("serving until SIGTERM or SIGINT");
            out.flush();
            try {
                stopRequested.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                ks.stop();
                if (admin != null) {
                    admin.close();
                }
                out.println("key server stopped");
                out.flush();
                stopped.countDown();
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running (or has run): the JVM is exiting anyway
                }
            }
            return OK;
        }
    }

    private static void checkRsaBits(CommandSpec spec, int bits) {
        if (bits != 1024 && bits != 2048 && bits != 3072 && bits != 4096) {
            throw new ParameterException(spec.commandLine(), "--rsa-bits must be 2048, 3072 or 4096 (1024 for comparisons), not " + bits);
        }
    }

    private static void checkPort(CommandSpec spec, String option, int port) {
        if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), option + " must be in 0..65535, not " + port);
        }
    }

    /** A directory made by init (has oprf/CURRENT), else a usage error naming it. */
    private static KeyServerDirectory existing(Path dir) throws IOException {
        KeyServerDirectory d = new KeyServerDirectory(dir);
        if (!Files.isDirectory(dir)) {
            throw new IOException("no key-server directory at " + dir + " (run 'keyserver init " + dir + "' first)");
        }
        if (!Files.isRegularFile(d.caCertificate()) || !Files.isRegularFile(dir.resolve("oprf").resolve("CURRENT"))) {
            throw new IOException(dir + " is not an initialised key-server directory (no ca.crt or oprf/CURRENT)");
        }
        return d;
    }

    /** Creates the directory with 0700 where it does not exist yet (POSIX file systems). */
    private static void createPrivateDirectory(Path dir) throws IOException {
        if (Files.exists(dir)) {
            return;
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectory(dir);
        }
    }

    private static String describeKey(OprfPublicKey key) {
        if (key instanceof RsaOprfPublicKey) {
            return "RSA-" + ((RsaOprfPublicKey) key).modulus().bitLength() + " (RSA-FDH-SHA256 OPRF)";
        }
        return "P-256 (P256-SHA256 VOPRF)";
    }
}
