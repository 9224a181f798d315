package io.coffer.gateway.cli;

import io.coffer.por.net.PorKeyFile;
import io.coffer.por.net.PorNetServer;
import io.coffer.por.net.ServerParameters;
import io.coffer.por.store.JournaledPorServer;
import io.coffer.sdk.blob.BlobStore;
import io.coffer.sdk.blob.S3BlobStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code coffer por-server}: the proof-of-retrievability server next to the storage (docs/POR.md, "The PoR server").
 * It keeps U, C and H under {@code --data}, fixed at the first start to 2^k blocks of {@code --block-size} bytes, and
 * serves one PoR client over the PoR protocol, sessions authenticated with the key in {@code --key-file} (created,
 * 0600, on the first start). Runs until SIGTERM or SIGINT.
 */
@Command(name = "por-server", mixinStandardHelpOptions = true,
        description = "Run the proof-of-retrievability server: stores U, C and H under --data, answers audits.")
final class PorServerCommand implements Callable<Integer> {
    static final String KEY_FILE = "session.key";
    /** Where U, C and H are kept, recorded at the first start: a later start must give the same. */
    static final String BACKEND_FILE = "backend";

    @Option(names = "--data", paramLabel = "DIR", required = true, description = "Where U, C and H are kept.")
    Path data;

    @Option(names = "--port", paramLabel = "P", defaultValue = "9100", description = "Default 9100 (0: any free).")
    int port;

    @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "127.0.0.1", description = "Default 127.0.0.1.")
    String bind;

    @Option(names = "--k", paramLabel = "K",
            description = "Initial capacity: 2^K blocks (1.." + ServerParameters.MAX_K + "); needed at the first start"
                    + " only: the client grows the store when it is full, up to --max-k.")
    Integer k;

    @Option(names = "--max-k", paramLabel = "K", defaultValue = "" + ServerParameters.MAX_K,
            description = "The largest capacity the client may grow the store to: 2^K blocks (default and at most "
                    + ServerParameters.MAX_K + ").")
    int maxK;

    @Option(names = "--block-size", paramLabel = "BYTES", description = "Bytes per block; first start only.")
    Integer blockSize;

    // the gateway's embedded server batches by por-batch (default 4): a separate server should not be slower by default
    @Option(names = "--batch", paramLabel = "B", defaultValue = "4",
            description = "Write batching: 2^B blocks per H add (default 4, as the gateway's por-batch); first start"
                    + " only.")
    int batch;

    @Option(names = "--key-file", paramLabel = "FILE",
            description = "The session key shared with the client (default: DIR/" + KEY_FILE
                    + ", created 0600 if absent).")
    Path keyFile;

    @Option(names = "--max-connections", paramLabel = "N", defaultValue = "32", description = "Default 32.")
    int maxConnections;

    @Option(names = "--backend", paramLabel = "dir|s3", defaultValue = "dir",
            description = "Where U, C and H are kept: dir (files under --data, the default) or s3 (objects in"
                    + " --s3-bucket; the journal and checksums stay under --data). Credentials: COFFER_BACKEND_ACCESS_KEY"
                    + " and COFFER_BACKEND_SECRET_KEY, else the AWS SDK's default chain.")
    String backend;

    @Option(names = "--s3-bucket", paramLabel = "BUCKET", description = "With --backend s3: the bucket.")
    String s3Bucket;

    @Option(names = "--s3-endpoint", paramLabel = "URL", description = "With --backend s3: a non-AWS endpoint.")
    URI s3Endpoint;

    @Option(names = "--s3-region", paramLabel = "REGION", defaultValue = S3BlobStore.DEFAULT_REGION,
            description = "With --backend s3: the signing region (default us-east-1).")
    String s3Region;

    @Option(names = "--s3-path-style", description = "With --backend s3: path-style addressing (local S3 servers).")
    boolean s3PathStyle;

    /** The environment, for the backend's credentials (tests give their own). */
    Function<String, String> env = System::getenv;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch started = new CountDownLatch(1);
    private volatile int boundPort;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if ((k == null) != (blockSize == null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--k and --block-size go together");
        }
        ServerParameters requested = k == null ? null : new ServerParameters(k, batch, blockSize);
        Path key = keyFile != null ? keyFile : data.resolve(KEY_FILE);
        try (BlobStore objects = objects(); JournaledPorServer server = JournaledPorServer.open(data, requested,
                objects)) {
            if (maxK < 1 || maxK > ServerParameters.MAX_K) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--max-k must be in [1, "
                        + ServerParameters.MAX_K + "]: " + maxK);
            }
            server.limitGrowth(Math.max(server.k(), maxK)); // a grown store keeps its k
            boolean created = !Files.exists(key);
            byte[] sessionKey = created ? PorKeyFile.create(key, new SecureRandom()) : PorKeyFile.load(key);
            PorNetServer net = PorNetServer.start(server, sessionKey, new InetSocketAddress(bind, port),
                    new PorNetServer.Limits(maxConnections, PorNetServer.Limits.DEFAULT.handshakeTimeoutMillis(),
                            PorNetServer.Limits.DEFAULT.idleTimeoutSeconds()));
            Thread hook = new Thread(stop::countDown, "coffer-por-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                boundPort = net.port();
                banner(spec.commandLine().getOut(), server, key, created);
                started.countDown();
                stop.await();
            } finally {
                net.close();
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the JVM is exiting: the hook has run
                }
            }
        }
        return 0;
    }

    /** The bucket of {@code --backend s3} (null for files); its name must be the one the directory was made with. */
    private BlobStore objects() throws IOException {
        String where;
        if (backend.equals("dir")) {
            where = "dir";
        } else if (backend.equals("s3")) {
            if (s3Bucket == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--backend s3 needs --s3-bucket");
            }
            where = "s3 " + (s3Endpoint == null ? "aws" : s3Endpoint) + " " + s3Bucket;
        } else {
            throw new CommandLine.ParameterException(spec.commandLine(), "--backend is dir or s3, not " + backend);
        }
        Files.createDirectories(data);
        Path recorded = data.resolve(BACKEND_FILE);
        if (Files.exists(recorded)) {
            String before = Files.readString(recorded, StandardCharsets.UTF_8).strip();
            if (!before.equals(where)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "the PoR server in " + data
                        + " keeps U, C and H in " + before + ", not " + where);
            }
        } else if (Files.exists(data.resolve("parameters")) && !where.equals("dir")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "the PoR server in " + data
                    + " keeps U, C and H in its directory, not " + where);
        } else {
            Files.writeString(recorded, where + "\n", StandardCharsets.UTF_8);
        }
        if (where.equals("dir")) {
            return null;
        }
        S3BlobStore.Builder s3 = S3BlobStore.builder().bucket(s3Bucket).region(s3Region).pathStyleAccess(s3PathStyle);
        if (s3Endpoint != null) {
            s3.endpoint(s3Endpoint);
        }
        String accessKey = env.apply("COFFER_BACKEND_ACCESS_KEY");
        String secretKey = env.apply("COFFER_BACKEND_SECRET_KEY");
        if (accessKey != null && secretKey != null) {
            s3.credentials(accessKey, secretKey);
        } else {
            s3.defaultCredentials();
        }
        return s3.build();
    }

    private void banner(PrintWriter out, JournaledPorServer server, Path key, boolean created) {
        out.println("Coffer PoR server");
        out.println("  listening:   " + bind + ":" + boundPort);
        out.println("  data:        " + data.toAbsolutePath() + " (2^" + server.k() + " blocks of "
                + server.blockBytes() + " bytes, 2^" + server.batchExponent() + " per H add)");
        out.println("  backend:     " + (backend.equals("s3") ? "s3 bucket " + s3Bucket : "files under data"));
        out.println("  session key: " + key.toAbsolutePath()
                + (created ? " (created now: give it to the client)" : ""));
        out.flush();
    }

    /** For tests: waits until the server listens and returns its port. */
    int awaitStarted() throws InterruptedException {
        started.await();
        return boundPort;
    }

    /** For tests: stops a running server as SIGTERM would. */
    void stop() {
        stop.countDown();
    }
}
