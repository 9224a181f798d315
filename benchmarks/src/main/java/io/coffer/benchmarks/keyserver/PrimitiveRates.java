package io.coffer.benchmarks.keyserver;

import io.coffer.keyserver.oprf.Oprf;
import io.coffer.keyserver.oprf.OprfServer;
import io.coffer.keyserver.oprf.RsaOprfPrivateKey;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECPoint;

/**
 * Part a: single-thread rates of the raw primitives and of the server's own evaluation; the latter is the raw limit
 * the other parts compare against ({@link #rawFor}).
 */
final class PrimitiveRates {
    private final PrintStream out;
    private final double primitiveSeconds;
    private final int batch;
    private final SecureRandom random = new SecureRandom();
    /** Single-thread evaluations/s of the server's OprfServer.blindEvaluate, by "key/batch". */
    private final Map<String, Double> rawRate = new LinkedHashMap<>();

    PrimitiveRates(KeyServerLoad options) {
        this.out = options.out;
        this.primitiveSeconds = options.primitiveSeconds;
        this.batch = options.batch;
    }

    void run(List<LoadTarget> targets) throws Exception {
        out.println("## (a) raw primitives, single thread, same harness (" + primitiveSeconds / 2 + " s warm-up, " + primitiveSeconds + " s measured)");
        out.println();
        out.println("| operation | ops/s (wall clock) | ops per CPU-second | CPU us/op |");
        out.println("|---|---:|---:|---:|");
        for (LoadTarget t : targets) {
            if (t.key instanceof RsaOprfPrivateKey) {
                RsaOprfPrivateKey rsa = (RsaOprfPrivateKey) t.key;
                RSAPrivateCrtKey crt = (RSAPrivateCrtKey) KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(rsa.exportSecretPkcs8()));
                BigInteger n = crt.getModulus();
                BigInteger[] xs = new BigInteger[1024];
                for (int i = 0; i < xs.length; i++) {
                    xs[i] = new BigInteger(n.bitLength() + 64, random).mod(n);
                }
                BigInteger p = crt.getPrimeP(), q = crt.getPrimeQ(), dP = crt.getPrimeExponentP(), dQ = crt.getPrimeExponentQ(), qInv = crt.getCrtCoefficient();
                int[] i = {0};
                row("RSA-" + t.bits + " private op, bare CRT (2 half-size modPow + Garner)", rate(() -> {
                    BigInteger x = xs[i[0]++ & 1023];
                    BigInteger m1 = x.mod(p).modPow(dP, p);
                    BigInteger m2 = x.mod(q).modPow(dQ, q);
                    return m2.add(qInv.multiply(m1.subtract(m2)).mod(p).multiply(q));
                }));
                row("RSA-" + t.bits + " RsaOprfPrivateKey.rawSign (base blinding + CRT + y^e check)", rate(() -> rsa.rawSign(xs[i[0]++ & 1023], random)));
            } else {
                X9ECParameters x9 = CustomNamedCurves.getByName("secp256r1");
                ECPoint[] pts = new ElementSource(t).points(1024);
                BigInteger k = new BigInteger(255, random);
                int[] i = {0};
                row("P-256 variable-base scalar mult (BC, normalize + compress)", rate(() -> pts[i[0]++ & 1023].multiply(k).normalize().getEncoded(true)));
                row("P-256 fixed-base scalar mult k*G (BC comb)", rate(() -> x9.getG().multiply(k).normalize().getEncoded(true)));
            }
            OprfServer server = Oprf.server(t.key, t.suite);
            for (int n : t.name.equals("p256") ? new int[] {1, batch} : new int[] {1}) {
                List<List<byte[]>> batches = new ArrayList<>();
                ElementSource src = new ElementSource(t);
                for (int j = 0; j < 64; j++) {
                    batches.add(src.next(n));
                }
                int[] i = {0};
                double wall = rate(() -> server.blindEvaluate(batches.get(i[0]++ & 63))) * n;
                lastCpuRate *= n;
                double r = lastCpuRate;
                rawRate.put(t.name + "/" + n, r);
                row(String.format(Locale.ROOT, "%s server evaluation, OprfServer.blindEvaluate batch %d%s (per element)", t.label(), n,
                        t.name.equals("p256") ? " incl. DLEQ proof" : ""), wall);
            }
        }
        out.println();
        out.println("raw limit used below: 2 cores x the per-CPU-second rate of OprfServer.blindEvaluate (what a worker runs per query; "
                + "CPU time, so that other tenants' load does not lower the limit); RSA batches cost the same per element as batch 1");
        out.println();
    }

    private interface Op {
        Object run() throws Exception;
    }

    /** Last rate()'s operations per second of thread CPU time (what one dedicated core would do). */
    private double lastCpuRate;

    /** Operations per wall-clock second; {@link #lastCpuRate} gets them per CPU second. */
    private double rate(Op op) throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sink = 0;
        long warm = System.nanoTime() + (long) (primitiveSeconds / 2 * 1e9);
        while (System.nanoTime() < warm) {
            sink += op.run().hashCode();
        }
        long cpu0 = mx.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long end = start + (long) (primitiveSeconds * 1e9);
        long ops = 0;
        long now;
        do {
            for (int j = 0; j < 8; j++) {
                sink += op.run().hashCode();
            }
            ops += 8;
            now = System.nanoTime();
        } while (now < end);
        long cpu = mx.getCurrentThreadCpuTime() - cpu0;
        if (sink == 42) {
            out.print("");
        }
        lastCpuRate = ops / (Math.max(1, cpu) / 1e9);
        return ops / ((now - start) / 1e9);
    }

    private void row(String name, double opsPerSecond) {
        out.printf(Locale.ROOT, "| %s | %,.0f | %,.0f | %.1f |%n", name, opsPerSecond, lastCpuRate, 1e6 / lastCpuRate);
    }

    /** 1-core evaluations/s (per CPU second) of the server for {@code t} at batch {@code n} (RSA: batch 1 for all), NaN without part a. */
    double rawFor(LoadTarget t, int n) {
        Double r = rawRate.get(t.name + "/" + (t.name.equals("p256") ? n : 1));
        if (r == null && t.name.equals("p256")) {
            r = rawRate.get(t.name + "/1");
        }
        return r == null ? Double.NaN : r;
    }
}
