package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.coffer.gateway.config.ConfigKey;
import io.coffer.gateway.config.GatewayConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * docker/Dockerfile and docker/compose.yaml agree with the command line: every COFFER_* variable is a setting, the
 * gateway's environment passes {@code coffer config check}, commands parse, ports and the health check line up, the
 * image runs as a non-root user. (No daemon runs here to build the Dockerfile; the daemonless image that
 * docker/build-image.py writes is built and run by {@link io.coffer.gateway.image.ContainerImageIT}.)
 */
class DockerFilesTest {
    private static final Path DOCKER = Path.of(System.getProperty("user.dir")).resolve("../docker").normalize();
    private static final Set<String> SETTINGS = Arrays.stream(ConfigKey.values()).map(ConfigKey::envName)
            .collect(Collectors.toSet());
    private static final Pattern INTERPOLATION = Pattern.compile("\\$\\{([A-Z_]+)(?::-([^}]*))?}");

    @TempDir
    Path dir;

    @Test
    void composeGatewayEnvironmentPassesConfigCheckAndCommandsParse() throws Exception {
        JsonNode compose = new ObjectMapper(new YAMLFactory()).readTree(DOCKER.resolve("compose.yaml").toFile());
        JsonNode gateway = compose.path("services").path("gateway");
        Map<String, String> env = new LinkedHashMap<>();
        gateway.path("environment").fields().forEachRemaining(e -> env.put(e.getKey(),
                interpolate(e.getValue().asText())));
        assertThat(env.keySet()).allSatisfy(name -> assertThat(SETTINGS).as("a Coffer setting").contains(name));
        List<String> command = strings(gateway.path("command"));
        assertThat(command).containsExactly("serve");
        new CommandLine(new CofferCommand()).parseArgs(command.toArray(String[]::new));

        env.put("COFFER_DATA", dir.resolve("data").toString());
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), CofferCommand.class.getName(), "config", "check")
                .redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("COFFER_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("backend = s3  # env").contains("s3-endpoint = http://minio:9000  # env")
                .contains("keyserver = keyserver:8443  # env").contains("secret-key = <redacted>  # env")
                .contains("backend-secret-key = <redacted>  # env").doesNotContain("change-this");
        int port = Integer.parseInt(env.get("COFFER_PORT"));
        int adminPort = Integer.parseInt(env.get("COFFER_ADMIN_PORT"));
        assertThat(strings(gateway.path("ports"))).contains("127.0.0.1:" + port + ":" + port,
                "127.0.0.1:" + adminPort + ":" + adminPort);

        JsonNode keyserver = compose.path("services").path("keyserver");
        List<String> serve = strings(keyserver.path("command"));
        assertThat(serve.subList(0, 2)).containsExactly("keyserver", "serve");
        assertThat(serve).contains(env.get("COFFER_KEYSERVER_DIR"));
        assertThat(serve.get(serve.indexOf("--https-port") + 1)).isEqualTo(env.get("COFFER_KEYSERVER")
                .substring(env.get("COFFER_KEYSERVER").indexOf(':') + 1));
        List<String> init = strings(compose.path("services").path("keyserver-init").path("command"));
        assertThat(init.subList(0, 3)).containsExactly("keyserver", "init", env.get("COFFER_KEYSERVER_DIR"));
        assertThat(init.get(init.indexOf("--server-name") + 1)).isEqualTo(env.get("COFFER_KEYSERVER").split(":")[0]);
        assertThat(init).as("a second `up` finds the directory initialised").contains("--if-missing");
        assertThat(strings(compose.path("services").path("create-bucket").path("command")).get(0))
                .contains("backend/" + env.get("COFFER_S3_BUCKET"));
        assertThat(out).contains("por = por:9100  # env");
    }

    /**
     * The PoR server beside the key server: the gateway's {@code COFFER_POR} names its service and port, and the
     * gateway reads the session key the server creates in its data directory, from the same volume.
     */
    @Test
    void composeRunsThePorServerAndPointsTheGatewayAtItWithItsSessionKey() throws Exception {
        JsonNode services = new ObjectMapper(new YAMLFactory()).readTree(DOCKER.resolve("compose.yaml").toFile())
                .path("services");
        JsonNode por = services.path("por");
        List<String> command = strings(por.path("command"));
        assertThat(command.get(0)).isEqualTo("por-server");
        CommandLine parsed = new CommandLine(new PorServerCommand());
        parsed.parseArgs(command.subList(1, command.size()).toArray(String[]::new));
        PorServerCommand server = parsed.getCommand();
        assertThat(server.bind).as("reachable from the gateway's container").isEqualTo("0.0.0.0");
        assertThat(server.k).as("sized at the first start").isNotNull();

        JsonNode gateway = services.path("gateway");
        Map<String, String> env = new LinkedHashMap<>();
        gateway.path("environment").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
        assertThat(env.get("COFFER_POR")).isEqualTo("por:" + server.port);
        assertThat(gateway.path("depends_on").has("por")).isTrue();
        String keyFile = server.keyFile != null ? server.keyFile.toString()
                : server.data.resolve(PorServerCommand.KEY_FILE).toString();
        assertThat(env.get("COFFER_POR_KEY_FILE")).isEqualTo(keyFile);

        String porVolume = volumeAt(por, server.data.toString());
        assertThat(porVolume).as("the PoR server's data directory is a named volume").isNotNull();
        List<String> gatewayMounts = strings(gateway.path("volumes"));
        assertThat(gatewayMounts).anySatisfy(m -> {
            String[] parts = m.split(":");
            assertThat(parts[0]).isEqualTo(porVolume);
            assertThat(keyFile).startsWith(parts[1] + "/");
        });
        assertThat(new ObjectMapper(new YAMLFactory()).readTree(DOCKER.resolve("compose.yaml").toFile())
                .path("volumes").has(porVolume)).isTrue();
        assertThat(Files.readString(DOCKER.resolve("Dockerfile")))
                .as("a new named volume takes the owner of the image's directory").contains("/var/lib/coffer-por");
        assertThat(Files.readString(DOCKER.resolve("build-image.py"))).contains("\"var/lib/coffer-por\", 0o700, UID");
    }

    /** The named volume a service mounts at {@code path}, or null. */
    private static String volumeAt(JsonNode service, String path) {
        for (String m : strings(service.path("volumes"))) {
            String[] parts = m.split(":");
            if (parts.length >= 2 && parts[1].equals(path)) {
                return parts[0];
            }
        }
        return null;
    }

    /**
     * The image docker/build-image.py writes has no shell and runs the command line as its entrypoint (the
     * Dockerfile's entrypoint, a script, takes the same arguments): a compose service on the Coffer image must keep
     * that entrypoint, give it a command line Coffer parses and keep the image's health check or none.
     */
    @Test
    void composeRunsEveryCofferServiceThroughTheImageEntrypointWithoutAShell() throws Exception {
        JsonNode services = new ObjectMapper(new YAMLFactory()).readTree(DOCKER.resolve("compose.yaml").toFile())
                .path("services");
        String image = services.path("gateway").path("image").asText();
        List<String> onTheImage = new ArrayList<>();
        services.fields().forEachRemaining(e -> {
            if (e.getValue().path("image").asText().equals(image)) {
                onTheImage.add(e.getKey());
            }
        });
        assertThat(onTheImage).contains("gateway", "keyserver", "keyserver-init", "por");
        for (String name : onTheImage) {
            JsonNode service = services.path(name);
            assertThat(service.has("entrypoint")).as(name + ": entrypoint overridden").isFalse();
            List<String> command = strings(service.path("command"));
            assertThat(command).as(name + ": command").isNotEmpty();
            CofferCommand.commandLine().parseArgs(command.toArray(String[]::new));
            JsonNode health = service.path("healthcheck");
            if (!health.isMissingNode()) {
                assertThat(health.path("disable").asBoolean()).as(name + ": healthcheck other than the image's")
                        .isTrue();
            }
        }
    }

    /**
     * docs/OPERATIONS.md, "Memory": one set of G1 options, written once (docker/java-options.sh, which ./coffer and the
     * Dockerfile's docker/coffer both source) and in the daemonless image, and in each the user's options reach the
     * JVM after them, so they win: COFFER_JAVA_OPTS in ./coffer, JAVA_OPTS in docker/coffer. The java launcher puts
     * JDK_JAVA_OPTIONS (the daemonless image's) at the start of the command line, so that image has the options built
     * into its runtime (jlink's --add-options, read before the command line) and none in its Entrypoint;
     * {@link io.coffer.gateway.image.ContainerImageIT} checks the flags its java ends up with.
     */
    @Test
    void launcherAndBothImagesStartTheGatewayWithTheSameG1OptionsAndTheUsersAfterThem() throws Exception {
        List<String> options = List.of(javaOptions("gc_java_opts serve").split(" "));
        assertThat(options).contains("-XX:InitiatingHeapOccupancyPercent=80");
        String coffer = Files.readString(DOCKER.resolve("../coffer"));
        assertThat(coffer).as("./coffer sources the shared options").contains(". \"$ROOT/docker/java-options.sh\"\n");
        assertThat(coffer).as("./coffer: COFFER_JAVA_OPTS after the G1 and PoR options")
                .contains("exec java $(gc_java_opts \"$@\") $(por_java_opts \"$@\") ${COFFER_JAVA_OPTS:-} ");
        String image = Files.readString(DOCKER.resolve("coffer"));
        assertThat(image).as("docker/coffer sources the shared options where the Dockerfile copies them")
                .contains(". /opt/coffer/java-options.sh\n");
        assertThat(joinedLines(DOCKER.resolve("Dockerfile")))
                .contains("COPY docker/java-options.sh /opt/coffer/java-options.sh");
        assertThat(image).as("docker/coffer: JAVA_OPTS after the G1 and PoR options")
                .contains("exec java $(gc_java_opts \"$@\") $(por_java_opts \"$@\") ${JAVA_OPTS:-} ");

        String imageScript = Files.readString(DOCKER.resolve("build-image.py"));
        assertThat(imageScript).as("build-image.py's JVM_OPTIONS").contains("\nJVM_OPTIONS = ["
                + options.stream().map(o -> "\"" + o + "\"").collect(Collectors.joining(", ")) + "]\n");
        assertThat(imageScript).as("build-image.py's jlink builds them into the runtime")
                .contains("\"--add-options=\" + \" \".join(JVM_OPTIONS)");
        Matcher entrypoint = Pattern.compile("\"Entrypoint\": \\[([^\\]]*)]").matcher(imageScript);
        assertThat(entrypoint.find()).as("build-image.py's Entrypoint").isTrue();
        assertThat(entrypoint.group(1)).as("no JVM option after the JDK_JAVA_OPTIONS that the java launcher puts first")
                .isEqualTo("JAVA, \"-cp\", CLASSPATH, MAIN");
    }

    @Test
    void dockerfileRunsTheCommandLineAsNonRootWithAReadinessHealthCheck() throws IOException {
        List<String> lines = joinedLines(DOCKER.resolve("Dockerfile"));
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.startsWith("ENV ")) {
                Matcher m = Pattern.compile("([A-Z_]+)=(\\S+)").matcher(line);
                while (m.find()) {
                    env.put(m.group(1), m.group(2));
                }
            }
        }
        assertThat(env.keySet()).allSatisfy(name -> assertThat(SETTINGS).contains(name));
        GatewayConfig config = GatewayConfig.load(null, env, Map.of());
        assertThat(config.get(ConfigKey.BIND)).isEqualTo("0.0.0.0");

        String user = single(lines, "USER ");
        assertThat(user).doesNotStartWith("USER root").doesNotStartWith("USER 0");
        assertThat(single(lines, "EXPOSE ")).isEqualTo("EXPOSE " + config.get(ConfigKey.PORT) + " "
                + config.get(ConfigKey.ADMIN_PORT));
        assertThat(single(lines, "HEALTHCHECK ")).contains("/health/ready").contains("${COFFER_ADMIN_PORT}");
        assertThat(single(lines, "FROM ")).isEqualTo("FROM eclipse-temurin:17-jre");
        assertThat(lines).contains("COPY gateway/target/lib/ /opt/coffer/lib/",
                "COPY gateway/target/coffer-gateway-*.jar /opt/coffer/coffer-gateway.jar");
        assertThat(Files.readString(DOCKER.resolve("../gateway/pom.xml")))
                .as("the build lays out the runtime libraries where the Dockerfile copies them from")
                .contains("<outputDirectory>${project.build.directory}/lib</outputDirectory>");
        String launcher = Files.readString(DOCKER.resolve("coffer"));
        assertThat(launcher).contains(CofferCommand.class.getName()).contains("/opt/coffer/coffer-gateway.jar")
                .contains("/opt/coffer/lib/*");
        assertThat(Files.isExecutable(DOCKER.resolve("coffer"))).isTrue();
    }

    /**
     * The shared options under POSIX sh (docker/coffer's shell): the Vector API module for serve (the MD5 lanes) and
     * for the verbs whose PoR client computes checksums, AVX-512 only where PoR runs, nothing for other verbs, G1's
     * options only for serve.
     */
    @Test
    void sharedJavaOptionsGiveTheVectorModuleToServeAndThePorVerbsUnderPosixSh() throws Exception {
        String vector = "--add-modules jdk.incubator.vector";
        assertThat(javaOptions("por_java_opts serve --por embedded")).startsWith(vector);
        assertThat(javaOptions("COFFER_POR=remote:9443 por_java_opts serve")).startsWith(vector);
        assertThat(javaOptions("por_java_opts audit --data d")).startsWith(vector);
        assertThat(javaOptions("por_java_opts serve --por off")).isEqualTo(vector);
        assertThat(javaOptions("por_java_opts serve")).isEqualTo(vector);
        assertThat(javaOptions("por_java_opts por-server --data d")).doesNotContain(vector);
        assertThat(javaOptions("por_java_opts keyserver")).isEmpty();
        assertThat(javaOptions("gc_java_opts keyserver")).isEmpty();
    }

    /** What {@code call} prints after sourcing docker/java-options.sh in {@code sh}, COFFER_POR unset. */
    private static String javaOptions(String call) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", ". ./java-options.sh && " + call).directory(DOCKER.toFile())
                .redirectErrorStream(true);
        pb.environment().remove("COFFER_POR");
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    private static String interpolate(String value) {
        Matcher m = INTERPOLATION.matcher(value);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(m.group(2) == null ? "" : m.group(2)));
        }
        return m.appendTail(sb).toString();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** Dockerfile lines with backslash continuations joined. */
    private static List<String> joinedLines(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String raw : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String line = raw.strip();
            if (line.startsWith("#") || (line.isEmpty() && current.isEmpty())) {
                continue;
            }
            if (line.endsWith("\\")) {
                current.append(line, 0, line.length() - 1).append(' ');
            } else {
                out.add(current.append(line).toString().replaceAll("\\s+", " ").strip());
                current.setLength(0);
            }
        }
        return out;
    }

    private static String single(List<String> lines, String instruction) {
        List<String> found = lines.stream().filter(l -> l.startsWith(instruction)).toList();
        assertThat(found).as(instruction).hasSize(1);
        return found.get(0);
    }
}
