package io.coffer.benchmarks.gateway;

import io.coffer.benchmarks.EngineBenchmark;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The boto3 shape of issue 23: starts the servers as {@link TargetSet} does (backend s3proxy, s3proxy with its
 * encrypting middleware over it, and Coffer over it from the shipped launcher, {@code coffer serve}), then runs
 * {@code benchmarks/transfer-bench.py} with the repository's {@code .venv} Python against them, which measures and
 * writes the report. The servers stop when it ends.
 *
 * <p>Options: {@code --root DIR} (the checkout whose {@code coffer} launcher and {@code .venv} to use; default the
 * working directory), {@code --heap SIZE} (server -Xmx, 1g), {@code --targets LIST} (default
 * {@code direct,coffer,s3proxy-enc}; {@code relay} may be added), {@code --coffer-jvm-args "ARGS"} (more gateway JVM
 * options), {@code --work DIR} (kept; default a temporary directory, deleted); every other {@code --option value}
 * goes to the Python driver ({@code --rounds}, {@code --size-mib}, {@code --part-mib}, {@code --objects},
 * {@code --threads}, {@code --small-seconds}, {@code --warmup-rounds}, {@code --max-warmup-rounds} (16), {@code
 * --jit-idle-percent}, {@code --settle}, {@code --out}, {@code --json}; it warms up as {@link GatewayBenchmark} does,
 * deletes each phase's objects once checked and writes back dirty pages before each phase, outside the timing).
 */
public final class TransferBenchmark {
    private static final List<String> OWN = List.of("root", "heap", "targets", "coffer-jvm-args", "work");

    private TransferBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> own = new LinkedHashMap<>();
        List<String> driverArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option value pairs, got " + Arrays.toString(args));
            }
            String name = args[i].substring(2);
            if (OWN.contains(name)) {
                own.put(name, args[++i]);
            } else {
                driverArgs.add(args[i]);
                driverArgs.add(args[++i]);
            }
        }
        Path root = Path.of(own.getOrDefault("root", ".")).toAbsolutePath().normalize();
        Path python = root.resolve(".venv/bin/python");
        if (!Files.isExecutable(python)) {
            throw new IllegalStateException(python + " is missing: `./coffer test` creates .venv with boto3");
        }
        List<String> names = List.of(own.getOrDefault("targets", "direct,coffer,s3proxy-enc").split(","));
        String extra = own.getOrDefault("coffer-jvm-args", "").trim();
        List<String> cofferJvm = extra.isEmpty() ? List.of() : List.of(extra.split(" +"));
        boolean deleteWork = !own.containsKey("work");
        Path work = deleteWork ? Files.createTempDirectory("coffer-transfer-bench") : Path.of(own.get("work"));

        List<ServerProcess> all = new ArrayList<>();
        Thread cleanup = new Thread(() -> closeAll(all), "bench-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        int exit;
        try {
            TargetSet set = TargetSet.start(work, own.getOrDefault("heap", "1g"), cofferJvm, null, 0,
                    root.resolve("coffer"), all);
            Path targets = work.resolve("targets.json");
            Files.writeString(targets, targetsJson(set, names), StandardCharsets.UTF_8);
            List<String> cmd = new ArrayList<>(List.of(python.toString(),
                    root.resolve("benchmarks/transfer-bench.py").toString(), "--targets", targets.toString()));
            cmd.addAll(driverArgs);
            exit = new ProcessBuilder(cmd).inheritIO().start().waitFor();
            for (ServerProcess p : all) {
                if (!p.isAlive()) {
                    throw new IllegalStateException(p.name() + " died; its output:\n" + p.output());
                }
            }
            for (Target t : set.all()) {
                t.client.close();
            }
        } finally {
            closeAll(all);
            Runtime.getRuntime().removeShutdownHook(cleanup);
            if (deleteWork) {
                EngineBenchmark.deleteTree(work);
            }
        }
        System.exit(exit);
    }

    /** The driver's endpoint list: name, URL, credentials, bucket and the pids of the servers each path involves. */
    private static String targetsJson(TargetSet set, List<String> names) {
        List<String> entries = new ArrayList<>();
        for (String name : names) {
            Target t = set.all().stream().filter(x -> x.name.equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown target " + name));
            var creds = t.client.serviceClientConfiguration().credentialsProvider().resolveIdentity().join();
            String endpoint = t.client.serviceClientConfiguration().endpointOverride().orElseThrow().toString();
            String pids = t.servers.stream().map(p -> Long.toString(p.pid())).collect(Collectors.joining(","));
            entries.add(String.format("{\"name\": \"%s\", \"endpoint\": \"%s\", \"key\": \"%s\", \"secret\": \"%s\","
                    + " \"bucket\": \"%s\", \"pids\": [%s]}", t.name, endpoint, creds.accessKeyId(),
                    creds.secretAccessKey(), t.bucket, pids));
        }
        return "[" + String.join(",\n", entries) + "]\n";
    }

    private static void closeAll(List<ServerProcess> servers) {
        for (int i = servers.size() - 1; i >= 0; i--) {
            try {
                servers.get(i).close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
