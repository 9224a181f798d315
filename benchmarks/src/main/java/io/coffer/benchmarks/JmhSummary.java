package io.coffer.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints Markdown tables from JMH JSON results ({@code -rf json}): for every benchmark the median of all measured
 * iterations over all forks, their min–max, and the sample count, in MiB/s where the benchmark moves bytes (ops/s
 * otherwise); then, when the file holds {@link EngineBenchmark} results, the ratios of the engine to the raw
 * baselines measured in the same run.
 *
 * <p>Conversions: {@link CryptoBaselineBenchmark} and {@link ChunkPipelineBenchmark} already score in MiB/s (one
 * operation = 1 MiB); {@link ChunkerBenchmark} scores whole buffers per second (times {@code sizeMiB});
 * single-shot {@link EngineBenchmark} scores are milliseconds per {@value EngineBenchmark#LARGE_MIB} MiB.
 *
 * <p>Usage: {@code java -cp ... io.coffer.benchmarks.JmhSummary results.json...}
 */
public final class JmhSummary {
    private JmhSummary() {
    }

    /** Samples of one benchmark, converted, plus how to label them. */
    record Result(String name, String params, String unit, double[] samples) {
        double median() {
            return percentile(samples, 0.5);
        }

        double min() {
            return samples[0];
        }

        double max() {
            return samples[samples.length - 1];
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: JmhSummary results.json...");
            System.exit(2);
        }
        ObjectMapper mapper = new ObjectMapper();
        Map<String, Result> results = new LinkedHashMap<>();
        for (String file : args) {
            for (JsonNode b : mapper.readTree(Path.of(file).toFile())) {
                Result r = convert(b);
                results.put(r.name() + (r.params().isEmpty() ? "" : " " + r.params()), r);
            }
        }
        System.out.println("| benchmark | params | median | min–max | unit | samples |");
        System.out.println("|---|---|---:|---:|---|---:|");
        for (Result r : results.values()) {
            System.out.printf(Locale.ROOT, "| %s | %s | %.1f | %.1f–%.1f | %s | %d |%n", r.name(), r.params(),
                    r.median(), r.min(), r.max(), r.unit(), r.samples().length);
        }
        Result put = find(results, "EngineBenchmark.putLarge");
        Result get = find(results, "EngineBenchmark.getLarge");
        Result md5 = find(results, "EngineBenchmark.rawMd5");
        Result sha = find(results, "EngineBenchmark.rawSha256");
        Result ctr = find(results, "EngineBenchmark.rawAesCtr");
        if (put == null && get == null) {
            return;
        }
        System.out.println();
        System.out.println("| ratio (same run) | median / median | worst–best (min/max … max/min) | target |");
        System.out.println("|---|---:|---:|---|");
        ratio("PUT / MD5", put, md5, ">= 60 %, aim 90 %");
        ratio("PUT / AES-CTR", put, ctr, "");
        ratio("GET / SHA-256", get, sha, ">= 60 %, aim 80 %");
        ratio("GET / AES-CTR", get, ctr, "");
        for (Result p : results.values()) {
            if (p.name().equals("EngineBenchmark.putLarge")) {
                Result alone = results.values().stream().filter(r -> r.name().equals("EngineBenchmark.rawBackendPut")
                        && r.params().equals(p.params())).findFirst().orElse(null);
                ratio("PUT / backend alone (" + p.params() + ")", p, alone, "");
            }
        }
    }

    private static void ratio(String label, Result a, Result b, String target) {
        if (a == null || b == null) {
            return;
        }
        System.out.printf(Locale.ROOT, "| %s | %.0f %% | %.0f–%.0f %% | %s |%n", label, 100 * a.median() / b.median(),
                100 * a.min() / b.max(), 100 * a.max() / b.min(), target);
    }

    private static Result find(Map<String, Result> results, String name) {
        return results.values().stream().filter(r -> r.name().equals(name)).findFirst().orElse(null);
    }

    static Result convert(JsonNode b) {
        String full = b.get("benchmark").asText();
        String[] parts = full.split("\\.");
        String name = parts[parts.length - 2] + "." + parts[parts.length - 1];
        String mode = b.get("mode").asText();
        JsonNode pm = b.get("primaryMetric");
        String rawUnit = pm.get("scoreUnit").asText();
        List<String> paramList = new ArrayList<>();
        JsonNode params = b.get("params");
        int sizeMiB = 1;
        if (params != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = params.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                paramList.add(e.getKey() + "=" + e.getValue().asText());
                if (e.getKey().equals("sizeMiB")) {
                    sizeMiB = Integer.parseInt(e.getValue().asText());
                }
            }
        }
        List<Double> raw = new ArrayList<>();
        for (JsonNode fork : pm.get("rawData")) {
            for (JsonNode v : fork) {
                raw.add(v.asDouble());
            }
        }
        double factor;
        boolean inverse = false;
        String unit;
        if (mode.equals("ss") && name.startsWith("EngineBenchmark.")) {
            if (!rawUnit.equals("ms/op")) {
                throw new IllegalArgumentException(full + ": expected ms/op, got " + rawUnit);
            }
            factor = EngineBenchmark.LARGE_MIB * 1000.0;
            inverse = true;
            unit = "MiB/s";
        } else if (mode.equals("thrpt") && rawUnit.equals("ops/s")) {
            if (name.startsWith("CryptoBaselineBenchmark.") || name.startsWith("ChunkPipelineBenchmark.")) {
                factor = 1;
                unit = "MiB/s";
            } else if (name.startsWith("ChunkerBenchmark.")) {
                factor = sizeMiB;
                unit = "MiB/s";
            } else {
                factor = 1;
                unit = "ops/s";
            }
        } else {
            factor = 1;
            unit = rawUnit;
        }
        double[] samples = new double[raw.size()];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = inverse ? factor / raw.get(i) : factor * raw.get(i);
        }
        Arrays.sort(samples);
        return new Result(name, String.join(" ", paramList), unit, samples);
    }

    /** Linear-interpolated percentile of sorted values ({@code p = 0.5}: the median). */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double pos = p * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = (int) Math.ceil(pos);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
    }
}
