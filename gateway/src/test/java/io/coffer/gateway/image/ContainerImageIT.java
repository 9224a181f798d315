package io.coffer.gateway.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.coffer.gateway.release.LaunchedProcess;
import io.coffer.gateway.release.StockClients;
import io.coffer.sdk.testing.S3ServerFixture;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The container image that {@code docker/build-image.py} writes without a Docker daemon: a docker-archive whose config
 * runs the gateway as an unprivileged user with a health check, whose layers hold exactly what that config names; and,
 * where this test may {@code chroot} (it runs as root; /proc and a minimal /dev mounted, as a container runtime
 * would), the image's own root file system runs {@code coffer serve} as
 * user 10001, passes the image's HEALTHCHECK command, fails it once stopped, and stores and returns an object for the
 * AWS SDK; on an S3 backend, serves aws-cli and boto3 (the release stage's smoke test); runs compose's
 * keyserver-init without a shell; and starts its JVM with the gateway's G1 options, which a user's
 * {@code JDK_JAVA_OPTIONS} override. Runs after {@code package} (failsafe), because the image is built from
 * {@code target/lib}.
 */
class ContainerImageIT {
    private static final Path MODULE = Path.of(System.getProperty("user.dir"));
    private static final Path TARGET = MODULE.resolve("target");
    private static final Path TARBALL = TARGET.resolve("coffer-image.tar");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode config;
    private static final Map<String, TarArchiveEntry> files = new LinkedHashMap<>();
    private static final List<Path> layers = new ArrayList<>();
    private static boolean rootfsMounted;

    @BeforeAll
    static void buildAndReadTheImage() throws Exception {
        Process p = new ProcessBuilder("python3", MODULE.resolve("../docker/build-image.py").normalize().toString(),
                "--out", TARBALL.toString(), "--gateway-target", TARGET.toString(), "--tag", "coffer-gateway:it")
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(output).isZero();

        Path unpacked = TARGET.resolve("image-archive");
        deleteTree(unpacked);
        Map<String, String> digests = new LinkedHashMap<>();
        try (TarArchiveInputStream outer = new TarArchiveInputStream(Files.newInputStream(TARBALL))) {
            for (TarArchiveEntry e = outer.getNextEntry(); e != null; e = outer.getNextEntry()) {
                if (e.isDirectory()) {
                    continue;
                }
                Path to = unpacked.resolve(e.getName());
                Files.createDirectories(to.getParent());
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                try (InputStream in = new DigestInputStream(new NonClosing(outer), sha)) {
                    Files.copy(in, to);
                }
                digests.put(e.getName(), HexFormat.of().formatHex(sha.digest()));
            }
        }
        JsonNode manifest = JSON.readTree(unpacked.resolve("manifest.json").toFile()).get(0);
        assertThat(manifest.get("RepoTags").get(0).asText()).isEqualTo("coffer-gateway:it");
        String configName = manifest.get("Config").asText();
        assertThat(configName).isEqualTo(digests.get(configName) + ".json");
        JsonNode image = JSON.readTree(unpacked.resolve(configName).toFile());
        config = image.get("config");
        JsonNode diffIds = image.get("rootfs").get("diff_ids");
        assertThat(manifest.get("Layers")).hasSize(diffIds.size());
        for (int i = 0; i < diffIds.size(); i++) {
            String layer = manifest.get("Layers").get(i).asText();
            assertThat(diffIds.get(i).asText()).as("diff id of " + layer).isEqualTo("sha256:" + digests.get(layer));
            layers.add(unpacked.resolve(layer));
            try (TarArchiveInputStream in = new TarArchiveInputStream(Files.newInputStream(unpacked.resolve(layer)))) {
                for (TarArchiveEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                    files.put(e.getName().replaceAll("/$", ""), e);
                }
            }
        }
    }

    @Test
    void imageRunsTheGatewayAsAnUnprivilegedUserWithAHealthCheck() {
        assertThat(config.get("User").asText()).isEqualTo("10001:10001");
        List<String> entrypoint = strings(config.get("Entrypoint"));
        assertThat(entrypoint).as("no JVM option after the JDK_JAVA_OPTIONS that the java launcher puts first")
                .containsExactly("/opt/java/bin/java", "-cp", "/opt/coffer/coffer-gateway.jar:/opt/coffer/lib/*",
                        "io.coffer.gateway.cli.CofferCommand");
        assertThat(strings(config.get("Cmd"))).containsExactly("serve");
        List<String> health = strings(config.get("Healthcheck").get("Test"));
        assertThat(health.get(0)).isEqualTo("CMD");
        assertThat(health.subList(1, health.size())).startsWith("/opt/java/bin/java").endsWith(
                "io.coffer.gateway.cli.CofferCommand", "health");
        assertThat(config.get("ExposedPorts").fieldNames()).toIterable().containsExactlyInAnyOrder("9000/tcp",
                "9001/tcp");
        assertThat(strings(config.get("Env"))).contains("COFFER_DATA=/var/lib/coffer", "COFFER_BIND=0.0.0.0");

        TarArchiveEntry java = files.get("opt/java/bin/java");
        assertThat(java).isNotNull();
        assertThat(java.getMode() & 0111).isNotZero();
        assertThat(files).containsKeys("lib64/ld-linux-x86-64.so.2", "etc/passwd", "opt/coffer/coffer-gateway.jar",
                "tmp", "proc");
        TarArchiveEntry data = files.get("var/lib/coffer");
        assertThat(data.isDirectory()).isTrue();
        assertThat(data.getLongUserId()).isEqualTo(10001);
        assertThat(data.getMode() & 0777).isEqualTo(0700);
        assertThat(files.get("tmp").getMode() & 01777).isEqualTo(01777);
        // nothing runs as root: no file in the image is setuid or setgid
        assertThat(files.values()).noneMatch(e -> (e.getMode() & 06000) != 0);
    }

    @Test
    void imageCarriesExactlyThePackagedLibraries() throws IOException {
        try (Stream<Path> lib = Files.list(TARGET.resolve("lib"))) {
            List<String> packaged = lib.map(p -> "opt/coffer/lib/" + p.getFileName()).sorted().toList();
            List<String> inImage = files.keySet().stream().filter(n -> n.startsWith("opt/coffer/lib/")).sorted()
                    .toList();
            assertThat(inImage).isEqualTo(packaged);
        }
    }

    @Test
    void rootFileSystemServesS3AndAnswersItsOwnHealthCheck() throws Exception {
        Path rootfs = mountedRootFileSystem();
        int port = freePort();
        int adminPort = freePort();
        Process gateway = startGateway(rootfs, adminPort, Map.of(
                "COFFER_PORT", Integer.toString(port),
                "COFFER_ACCESS_KEY", "imageitkey",
                "COFFER_SECRET_KEY", "image-it-secret-key-0123456789"), TARGET.resolve("image-serve.log"));
        try {
            byte[] body = new byte[1 << 20];
            new Random(7).nextBytes(body);
            try (S3Client s3 = S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:" + port))
                    .region(Region.US_EAST_1).forcePathStyle(true)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("imageitkey",
                            "image-it-secret-key-0123456789"))).build()) {
                s3.createBucket(b -> b.bucket("from-the-image"));
                s3.putObject(b -> b.bucket("from-the-image").key("k"), RequestBody.fromBytes(body));
                assertThat(s3.getObjectAsBytes(b -> b.bucket("from-the-image").key("k")).asByteArray())
                        .isEqualTo(body);
            }
            // the image carries the libraries the native crypto provider links against (libdl among them)
            assertThat(readLog(TARGET.resolve("image-serve.log"))).contains("native crypto provider installed")
                    .doesNotContain("native crypto provider unavailable");
            // the data went where the image's volume is, owned by the unprivileged user
            Path data = rootfs.resolve("var/lib/coffer");
            assertThat(Files.getAttribute(data.resolve("master.key"), "unix:uid")).isEqualTo(10001);

            gateway.destroy();
            assertThat(gateway.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(healthCheck(rootfs, adminPort)).as("HEALTHCHECK of a stopped gateway").isEqualTo(1);
        } finally {
            stop(gateway);
        }
    }

    /**
     * The release stage's smoke test on the image: its java serves an S3 backend (s3proxy on a loopback port of this
     * JVM) to aws-cli and boto3 on their default settings.
     */
    @Test
    void rootFileSystemServesAnS3BackendToStockClients(@TempDir Path work) throws Exception {
        Path rootfs = mountedRootFileSystem();
        S3ServerFixture backend = S3ServerFixture.start();
        int port = freePort();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("COFFER_PORT", Integer.toString(port));
        env.put("COFFER_DATA", "/tmp/coffer-on-s3");
        env.put("COFFER_ACCESS_KEY", StockClients.ACCESS_KEY);
        env.put("COFFER_SECRET_KEY", StockClients.SECRET_KEY);
        env.put("COFFER_BACKEND", "s3");
        env.put("COFFER_S3_ENDPOINT", backend.endpoint().toString());
        env.put("COFFER_S3_BUCKET", backend.createBucket());
        env.put("COFFER_S3_PATH_STYLE", "true");
        env.put("COFFER_BACKEND_ACCESS_KEY", backend.accessKey());
        env.put("COFFER_BACKEND_SECRET_KEY", backend.secretKey());
        Process gateway = startGateway(rootfs, freePort(), env, TARGET.resolve("image-serve-s3.log"));
        try {
            URI endpoint = URI.create("http://127.0.0.1:" + port);
            Path up = work.resolve("up.bin");
            byte[] body = new byte[20 << 20];
            new Random(8).nextBytes(body);
            Files.write(up, body);
            Path down = work.resolve("down.bin");
            StockClients.awsCli(endpoint, work, "s3", "mb", "s3://image-smoke").requireSuccess();
            StockClients.awsCli(endpoint, work, "s3", "cp", up.toString(), "s3://image-smoke/up.bin")
                    .requireSuccess();
            StockClients.awsCli(endpoint, work, "s3", "cp", "s3://image-smoke/up.bin", down.toString())
                    .requireSuccess();
            assertThat(Files.mismatch(up, down)).as("first differing byte").isEqualTo(-1);

            Path range = work.resolve("range.bin");
            StockClients.boto3(endpoint, work, "range", "image-smoke-boto3", up.toString(), "100", "1048675",
                    range.toString()).requireSuccess();
            assertThat(Files.readAllBytes(range)).isEqualTo(Arrays.copyOfRange(body, 100, 1048676));
        } finally {
            stop(gateway);
        }
    }

    /**
     * The image's java starts with the gateway's G1 options (built into its runtime, as ./coffer serve passes them),
     * and a user's {@code JDK_JAVA_OPTIONS} win over them, as {@code COFFER_JAVA_OPTS} do in ./coffer: the image's
     * entrypoint run with the flags printed at the JVM's start.
     */
    @Test
    void imageJavaStartsWithTheG1OptionsAndJdkJavaOptionsOverrideThem() throws Exception {
        Path rootfs = mountedRootFileSystem();
        assertThat(entrypointFlags(rootfs, "")).containsEntry("G1UseAdaptiveIHOP", "false")
                .containsEntry("InitiatingHeapOccupancyPercent", "80");
        assertThat(entrypointFlags(rootfs, " -XX:+G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=60"))
                .containsEntry("G1UseAdaptiveIHOP", "true").containsEntry("InitiatingHeapOccupancyPercent", "60");
    }

    /** The VM's final flags when the image's entrypoint runs {@code --version} with {@code JDK_JAVA_OPTIONS}. */
    private static Map<String, String> entrypointFlags(Path rootfs, String moreOptions) throws Exception {
        List<String> command = new ArrayList<>(chroot(rootfs));
        command.addAll(strings(config.get("Entrypoint")));
        command.add("--version");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        imageEnvironment(pb.environment(), freePort());
        pb.environment().put("JDK_JAVA_OPTIONS", "-XX:+PrintFlagsFinal" + moreOptions);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(command + ": " + out).isZero();
        Map<String, String> flags = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^\\s*\\S+\\s+(\\w+)\\s+:?=\\s+(\\S+)").matcher(out);
        while (m.find()) {
            flags.put(m.group(1), m.group(2));
        }
        return flags;
    }

    /**
     * compose's keyserver-init as compose runs it on this image: its command after the image's entrypoint (the image
     * has no shell), as the image's user, on the directory the key-server volume mounts; a second run (the next
     * {@code up}) succeeds and changes nothing.
     */
    @Test
    void composeKeyServerInitRunsInTheImageTwice() throws Exception {
        Path rootfs = mountedRootFileSystem();
        JsonNode init = new ObjectMapper(new YAMLFactory()).readTree(MODULE.resolve("../docker/compose.yaml")
                .toFile()).path("services").path("keyserver-init");
        assertThat(init.has("entrypoint")).as("keyserver-init overrides the entrypoint").isFalse();
        List<String> command = new ArrayList<>(chroot(rootfs));
        command.addAll(strings(config.get("Entrypoint")));
        command.addAll(strings(init.path("command")));
        Path ca = rootfs.resolve("var/lib/coffer-keyserver/ca.crt");
        byte[] first = null;
        for (int run = 1; run <= 2; run++) {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            imageEnvironment(pb.environment(), freePort());
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as("run " + run + " of " + command + ": " + out).isZero();
            if (first == null) {
                first = Files.readAllBytes(ca);
            }
        }
        assertThat(Files.readAllBytes(ca)).isEqualTo(first);
        assertThat(Files.getAttribute(ca, "unix:uid")).isEqualTo(10001);
    }

    /**
     * The image's layers unpacked once for every test, with /proc mounted and a /dev of its own as a container runtime
     * gives one (a tmpfs with null, zero, full, random and urandom: without the last two each JVM's SecureRandom seeds
     * itself from thread timings, about 8 s, and the native crypto provider refuses to load); assumes root (chroot
     * needs it).
     */
    private static synchronized Path mountedRootFileSystem() throws Exception {
        assumeThat(isRoot()).as("chroot needs root").isTrue();
        Path rootfs = TARGET.resolve("image-rootfs");
        if (!rootfsMounted) {
            // a run that was killed may have left /proc and /dev mounted there
            unmountProcAndDev(rootfs);
            deleteTree(rootfs);
            Files.createDirectories(rootfs);
            for (Path layer : layers) {
                run(List.of("tar", "--numeric-owner", "-xpf", layer.toString(), "-C", rootfs.toString()));
            }
            Process mount = new ProcessBuilder("mount", "-t", "proc", "proc", rootfs.resolve("proc").toString())
                    .redirectErrorStream(true).start();
            assumeThat(mount.waitFor()).as("mounting /proc in the root file system").isZero();
            Path dev = rootfs.resolve("dev");
            Process tmpfs = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "mode=755", "tmpfs", dev.toString())
                    .redirectErrorStream(true).start();
            int devMounted = tmpfs.waitFor();
            if (devMounted != 0) {
                unmountProcAndDev(rootfs);
            }
            assumeThat(devMounted).as("mounting a tmpfs on /dev in the root file system").isZero();
            rootfsMounted = true;
            for (Map.Entry<String, String> node : Map.of("null", "3", "zero", "5", "full", "7", "random", "8",
                    "urandom", "9").entrySet()) {
                run(List.of("mknod", "-m", "666", dev.resolve(node.getKey()).toString(), "c", "1", node.getValue()));
            }
        }
        return rootfs;
    }

    @AfterAll
    static void unmountRootFileSystem() throws Exception {
        if (rootfsMounted) {
            unmountProcAndDev(TARGET.resolve("image-rootfs"));
            rootfsMounted = false;
        }
    }

    private static void unmountProcAndDev(Path rootfs) throws IOException, InterruptedException {
        for (String mountpoint : List.of("proc", "dev")) {
            new ProcessBuilder("umount", rootfs.resolve(mountpoint).toString()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        }
    }

    /**
     * Runs the image's entrypoint and command in {@code rootfs} as the image's user, with the image's environment
     * plus {@code env} (bound to 127.0.0.1), waits until its admin port reports ready, and checks that the image's
     * HEALTHCHECK then passes. Polled over HTTP: each HEALTHCHECK is a JVM of its own, and starting one every half
     * second took CPU from the starting gateway on two cores.
     */
    private static Process startGateway(Path rootfs, int adminPort, Map<String, String> env, Path log)
            throws Exception {
        List<String> serve = new ArrayList<>(chroot(rootfs));
        serve.addAll(strings(config.get("Entrypoint")));
        serve.addAll(strings(config.get("Cmd")));
        ProcessBuilder pb = new ProcessBuilder(serve).redirectErrorStream(true).redirectOutput(log.toFile());
        imageEnvironment(pb.environment(), adminPort);
        pb.environment().put("COFFER_BIND", "127.0.0.1");
        pb.environment().putAll(env);
        Process gateway = pb.start();
        int health;
        try {
            LaunchedProcess.awaitReady(gateway, adminPort, Duration.ofSeconds(90), "the image's coffer serve",
                    () -> readLog(log), Optional::empty);
            health = healthCheck(rootfs, adminPort);
        } catch (InterruptedException | IOException | RuntimeException | AssertionError e) {
            stop(gateway);
            throw e;
        }
        if (health != 0) {
            stop(gateway);
        }
        assertThat(health).as("HEALTHCHECK exit status; gateway log: " + readLog(log)).isZero();
        return gateway;
    }

    private static String readLog(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    private static void stop(Process gateway) throws InterruptedException {
        if (gateway.isAlive()) {
            gateway.destroy();
            if (!gateway.waitFor(60, TimeUnit.SECONDS)) {
                gateway.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /** Runs the image's HEALTHCHECK command inside the root file system; its exit status. */
    private static int healthCheck(Path rootfs, int adminPort) throws IOException, InterruptedException {
        List<String> test = strings(config.get("Healthcheck").get("Test"));
        List<String> cmd = new ArrayList<>(chroot(rootfs));
        cmd.addAll(test.subList(1, test.size()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        imageEnvironment(pb.environment(), adminPort);
        return pb.start().waitFor();
    }

    private static void imageEnvironment(Map<String, String> env, int adminPort) {
        env.clear();
        for (String kv : strings(config.get("Env"))) {
            int eq = kv.indexOf('=');
            env.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        env.put("COFFER_ADMIN_PORT", Integer.toString(adminPort));
    }

    private static List<String> chroot(Path rootfs) {
        String[] user = config.get("User").asText().split(":");
        return List.of("/usr/sbin/chroot", "--userspec=" + user[0] + ":" + user[1], rootfs.toString());
    }

    private static boolean isRoot() throws IOException, InterruptedException {
        Process id = new ProcessBuilder("id", "-u").start();
        String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        return id.waitFor() == 0 && uid.equals("0") && Files.isExecutable(Path.of("/usr/sbin/chroot"));
    }

    private static void run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.getInputStream().transferTo(out);
        assertThat(p.waitFor()).as(String.join(" ", cmd) + ": " + out).isZero();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Lets Files.copy read one tar entry without closing the archive stream under it. */
    private static final class NonClosing extends FilterInputStream {
        NonClosing(InputStream in) {
            super(in);
        }

        @Override
        public void close() {
            // the archive stream stays open for the next entry
        }
    }
}
