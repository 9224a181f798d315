package io.coffer.benchmarks.gateway;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.s3.S3Client;

/** One way of reaching the backend, and what was measured through it. */
final class Target {
    final String name;
    final S3Client client;
    final String bucket;
    final List<ServerProcess> servers;
    final List<Double> putMBps = new ArrayList<>();
    final List<Double> getMBps = new ArrayList<>();
    final List<Double> dedupPutMBps = new ArrayList<>();
    final List<Double> smallPutOps = new ArrayList<>();
    final List<Double> smallGetOps = new ArrayList<>();
    final List<Double> smallPutP50 = new ArrayList<>();
    final List<Double> smallPutP99 = new ArrayList<>();
    final List<Double> smallGetP50 = new ArrayList<>();
    final List<Double> smallGetP99 = new ArrayList<>();
    final Map<String, double[]> cpu = new LinkedHashMap<>();
    long keys;

    Target(String name, S3Client client, String bucket, List<ServerProcess> servers) {
        this.name = name;
        this.client = client;
        this.bucket = bucket;
        this.servers = servers;
    }

    String nextKey(String prefix) {
        return prefix + "/" + (keys++);
    }

    /** CPU seconds used so far by the server processes this target goes through. */
    double serverCpuSeconds() {
        double s = 0;
        for (ServerProcess p : servers) {
            s += p.cpuSeconds();
        }
        return s;
    }

    /** CPU seconds used so far by the target's own process (the first server: a gateway, without its backend). */
    double frontCpuSeconds() {
        return servers.get(0).cpuSeconds();
    }

    void addCpu(String metric, double seconds, double units) {
        double[] acc = cpu.computeIfAbsent(metric, k -> new double[2]);
        acc[0] += seconds;
        acc[1] += units;
    }
}
