package io.coffer.benchmarks.gateway;

import io.coffer.gateway.config.ConfigKey;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The four ways of reaching the backend, started: the backend s3proxy, the TCP relay, the Coffer gateway and the
 * encrypting s3proxy (each its own JVM), an S3 client and a bucket per target, and a check that the encrypting paths
 * store ciphertext.
 *
 * @param all direct, relay, coffer and s3proxy-enc, in that order, then coffer-por if it was asked for
 * @param setup what the encryption check found, one line per backend bucket, for the report
 */
record TargetSet(List<Target> all, String setup) {
    private static final String BACKEND_KEY = "bench-backend-access";
    private static final String BACKEND_SECRET = "bench-backend-secret-0123456789";
    private static final String FRONT_KEY = "bench-front-access";
    private static final String FRONT_SECRET = "bench-front-secret-0123456789";
    /**
     * {@code COFFER_BENCH_POR_SERVER=remote}: {@code coffer-por}'s PoR server runs as {@code coffer por-server} in a
     * process of its own (the gateway reaches it over loopback with the session key), not embedded in the gateway.
     */
    private static final boolean REMOTE_POR = "remote".equals(System.getenv("COFFER_BENCH_POR_SERVER"));

    /**
     * Starts the servers under {@code work}, each with {@code -Xmx heap}, adding each to {@code all} as it starts
     * so that the caller stops them whatever happens. The Coffer gateways start as a user starts them, {@code launcher
     * serve} ({@code launcher}: the repository's {@code coffer} script, with its G1 options, and its PoR JVM options
     * where PoR is on), from that checkout's packaged jar and lib/; {@code cofferJvmArgs} go to both gateways' JVMs
     * and {@code jfr} (null: none) to {@code coffer}'s, through {@code COFFER_JAVA_OPTS}. With {@code porK > 0} a fifth
     * target, {@code coffer-por}: a second gateway like {@code coffer} (its own data directory and backend bucket)
     * with proofs of retrievability on ({@code COFFER_POR=embedded}, an embedded PoR server of 2^porK blocks of
     * 64 KiB), so PoR on and off are measured in the same run.
     */
    static TargetSet start(Path work, String heap, List<String> cofferJvmArgs, String jfr, int porK, Path launcher,
            List<ServerProcess> all) throws Exception {
        Properties backendProps = new Properties();
        backendProps.setProperty("jclouds.provider", "filesystem");
        backendProps.setProperty("jclouds.filesystem.basedir", work.resolve("backend-data").toString());
        backendProps.setProperty("jclouds.identity", BACKEND_KEY);
        backendProps.setProperty("jclouds.credential", BACKEND_SECRET);
        backendProps.setProperty("s3proxy.authorization", "aws-v2-or-v4");
        backendProps.setProperty("s3proxy.identity", BACKEND_KEY);
        backendProps.setProperty("s3proxy.credential", BACKEND_SECRET);
        backendProps.setProperty("s3proxy.ignore-unknown-headers", "true");
        Files.createDirectories(work.resolve("backend-data"));
        ServerProcess backend = ServerProcess.s3proxy("backend-s3proxy", work, heap, backendProps);
        all.add(backend);
        URI backendUri = URI.create("http://127.0.0.1:" + backend.port());
        S3Client backendClient = client(backendUri, BACKEND_KEY, BACKEND_SECRET);
        backendClient.createBucket(b -> b.bucket("bench-direct"));
        backendClient.createBucket(b -> b.bucket("coffer-backend"));
        backendClient.createBucket(b -> b.bucket("bench-relay"));
        if (porK > 0) {
            backendClient.createBucket(b -> b.bucket("coffer-por-backend"));
        }
        ServerProcess relay = ServerProcess.relay("tcp-relay", work, heap, backend.port());
        all.add(relay);

        Map<String, String> env = new LinkedHashMap<>();
        env.put("COFFER_DATA", work.resolve("coffer-data").toString());
        env.put("COFFER_BACKEND", "s3");
        env.put("COFFER_S3_ENDPOINT", backendUri.toString());
        env.put("COFFER_S3_BUCKET", "coffer-backend");
        env.put("COFFER_S3_REGION", "us-east-1");
        env.put("COFFER_S3_PATH_STYLE", "true");
        env.put("COFFER_BACKEND_ACCESS_KEY", BACKEND_KEY);
        env.put("COFFER_BACKEND_SECRET_KEY", BACKEND_SECRET);
        env.put("COFFER_ACCESS_KEY", FRONT_KEY);
        env.put("COFFER_SECRET_KEY", FRONT_SECRET);
        List<String> jvm = new ArrayList<>(cofferJvmArgs);
        if (jfr != null) {
            jvm.add("-XX:StartFlightRecording=filename=" + jfr + ",settings=profile");
        }
        ServerProcess coffer = ServerProcess.cofferLauncher("coffer-gateway", work, heap, env, jvm, launcher);
        all.add(coffer);

        Properties encProps = new Properties();
        encProps.setProperty("jclouds.provider", "aws-s3");
        encProps.setProperty("jclouds.endpoint", backendUri.toString());
        encProps.setProperty("jclouds.region", "us-east-1");
        encProps.setProperty("jclouds.identity", BACKEND_KEY);
        encProps.setProperty("jclouds.credential", BACKEND_SECRET);
        encProps.setProperty("s3proxy.authorization", "aws-v2-or-v4");
        encProps.setProperty("s3proxy.identity", FRONT_KEY);
        encProps.setProperty("s3proxy.credential", FRONT_SECRET);
        encProps.setProperty("s3proxy.ignore-unknown-headers", "true");
        encProps.setProperty("s3proxy.encrypted-blobstore", "true");
        encProps.setProperty("s3proxy.encrypted-blobstore-password", "bench-password-" + System.nanoTime());
        encProps.setProperty("s3proxy.encrypted-blobstore-salt", "bench-salt-" + System.nanoTime());
        ServerProcess enc = ServerProcess.s3proxy("encrypting-s3proxy", work, heap, encProps);
        all.add(enc);

        Target cofferTarget = new Target("coffer", client(URI.create("http://127.0.0.1:" + coffer.port()),
                FRONT_KEY, FRONT_SECRET), "bench-coffer", List.of(coffer, backend));
        Target encTarget = new Target("s3proxy-enc", client(URI.create("http://127.0.0.1:" + enc.port()),
                FRONT_KEY, FRONT_SECRET), "bench-enc", List.of(enc, backend));
        List<Target> targets = List.of(
                new Target("direct", backendClient, "bench-direct", List.of(backend)),
                new Target("relay", client(URI.create("http://127.0.0.1:" + relay.port()), BACKEND_KEY,
                        BACKEND_SECRET), "bench-relay", List.of(relay, backend)),
                cofferTarget, encTarget);
        cofferTarget.client.createBucket(b -> b.bucket("bench-coffer"));
        encTarget.client.createBucket(b -> b.bucket("bench-enc"));
        if (porK > 0) {
            Map<String, String> porEnv = new LinkedHashMap<>(env);
            porEnv.put("COFFER_DATA", work.resolve("coffer-por-data").toString());
            porEnv.put("COFFER_S3_BUCKET", "coffer-por-backend");
            // the write batch exponent (por-batch) to measure, when not the gateway's default
            String batch = System.getenv("COFFER_BENCH_POR_BATCH");
            batch = batch == null || batch.isBlank() ? null : batch.trim();
            List<ServerProcess> porServers = new ArrayList<>();
            if (REMOTE_POR) {
                // the PoR server in its own process, as beside the storage: the gateway's own CPU is then apart.
                // It starts from the launcher (its AVX-512 option for the butterflies) with the embedded server's
                // batching (the gateway's por-batch default, not por-server's 0) and the gateway's JVM options, so
                // the two columns differ only in where the server runs.
                Path porData = work.resolve("por-server-data");
                ServerProcess porServer = ServerProcess.porServer("por-server", work, heap, porData, porK, 65536,
                        batch == null ? ConfigKey.POR_BATCH.defaultValue() : batch, cofferJvmArgs, launcher);
                all.add(porServer);
                porServers.add(porServer);
                porEnv.put("COFFER_POR", "127.0.0.1:" + porServer.port());
                porEnv.put("COFFER_POR_KEY_FILE", porData.resolve("session.key").toString());
            } else {
                porEnv.put("COFFER_POR", "embedded");
                porEnv.put("COFFER_POR_K", Integer.toString(porK));
                porEnv.put("COFFER_POR_BLOCK_SIZE", "65536");
                if (batch != null) {
                    porEnv.put("COFFER_POR_BATCH", batch);
                }
            }
            ServerProcess por = ServerProcess.cofferLauncher("coffer-por-gateway", work, heap, porEnv, cofferJvmArgs,
                    launcher);
            all.add(por);
            List<ServerProcess> path = new ArrayList<>(List.of(por, backend));
            path.addAll(porServers);
            Target porTarget = new Target("coffer-por", client(URI.create("http://127.0.0.1:" + por.port()),
                    FRONT_KEY, FRONT_SECRET), "bench-coffer-por", List.copyOf(path));
            porTarget.client.createBucket(b -> b.bucket("bench-coffer-por"));
            List<Target> withPor = new ArrayList<>(targets);
            withPor.add(porTarget);
            targets = List.copyOf(withPor);
        }
        return new TargetSet(targets, checkEncryptionAtRest(backendClient, List.of(cofferTarget, encTarget)));
    }

    /** Shows that the encrypting paths store ciphertext: a probe object's stored bytes are not its plaintext. */
    private static String checkEncryptionAtRest(S3Client backend, List<Target> targets) throws IOException {
        byte[] probe = "coffer-bench-plaintext-probe ".repeat(200).getBytes(StandardCharsets.US_ASCII);
        StringBuilder sb = new StringBuilder();
        for (Target t : targets) {
            t.client.putObject(r -> r.bucket(t.bucket).key("probe"), RequestBody.fromBytes(probe));
            byte[] back = t.client.getObjectAsBytes(r -> r.bucket(t.bucket).key("probe")).asByteArray();
            if (!Arrays.equals(back, probe)) {
                throw new IllegalStateException(t.name + " returned other bytes than were stored");
            }
        }
        String needle = "coffer-bench-plaintext-probe";
        for (String bucket : List.of("coffer-backend", "bench-enc")) {
            int objectsSeen = 0;
            for (S3Object o : backend.listObjectsV2Paginator(r -> r.bucket(bucket)).contents()) {
                objectsSeen++;
                String body = new String(backend.getObjectAsBytes(r -> r.bucket(bucket).key(o.key())).asByteArray(),
                        StandardCharsets.ISO_8859_1);
                if (body.contains(needle)) {
                    throw new IllegalStateException("backend object " + bucket + "/" + o.key() + " holds plaintext");
                }
            }
            if (objectsSeen == 0) {
                throw new IllegalStateException("nothing stored in backend bucket " + bucket);
            }
            sb.append(String.format(Locale.ROOT, "backend bucket %s: %d object(s), none holds the probe's plaintext%n",
                    bucket, objectsSeen));
        }
        return sb.toString();
    }

    private static S3Client client(URI endpoint, String key, String secret) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret)))
                .httpClientBuilder(ApacheHttpClient.builder().maxConnections(64)
                        .connectionTimeout(Duration.ofSeconds(10)).socketTimeout(Duration.ofMinutes(5)))
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }
}
