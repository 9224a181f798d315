package io.coffer.benchmarks;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import io.coffer.sdk.crypto.JceWarmup;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * {@link ProviderCryptoBenchmark}'s comparison (JDK providers against ACCP: SHA-256, MD5, AES-256-GCM encryption and
 * decryption of 64 KiB and 1 MiB messages; HmacSHA256 of 64-byte messages, keyed for each) measured in this thread's CPU time and interleaved: every round runs each
 * operation with the JDK's provider and then ACCP's (the order alternating by round) over the same 32 MiB, so a loaded,
 * shared machine disturbs both sides alike. Prints, per operation and size, the median over the measured rounds of
 * MiB per CPU second for each provider and their ratio.
 *
 * <p>Run: {@code java -cp CLASSPATH io.coffer.benchmarks.ProviderCryptoCpuTime [MEASURED_ROUNDS] [WARMUP_ROUNDS]}
 * (defaults 7 and 3).
 */
public final class ProviderCryptoCpuTime {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int TOTAL_MIB = 32;
    private static final int TOTAL = TOTAL_MIB << 20;
    private static final int TAG = 16;
    private static final int[] SIZES = {64 << 10, 1 << 20};
    private static final String[] OPS = {"sha256", "md5", "aesGcmEncrypt", "aesGcmDecrypt", "hmacSha256"};
    /** HMAC-SHA256 runs on short messages, keyed afresh for each, as chunk ids and SigV4 chunk signatures use it. */
    private static final int HMAC_MESSAGE = 64;
    private static final int HMAC_TOTAL_MIB = 2;

    private final byte[] data = Data.random(TOTAL, 1);
    private final byte[] out = new byte[(1 << 20) + TAG];
    private final SecretKeySpec key = new SecretKeySpec(Data.random(32, 3), "AES");
    private long counter;

    private ProviderCryptoCpuTime() {
    }

    /** The operations of one provider, with messages pre-sealed for decryption at each size. */
    private final class Side {
        final MessageDigest md5;
        final MessageDigest sha256;
        final Cipher gcm;
        final Mac hmac;
        final byte[][] sealed = new byte[SIZES.length][];

        Side(Provider digests, Provider ciphers) throws GeneralSecurityException {
            md5 = MessageDigest.getInstance("MD5", digests);
            sha256 = MessageDigest.getInstance("SHA-256", digests);
            gcm = Cipher.getInstance("AES/GCM/NoPadding", ciphers);
            hmac = Mac.getInstance("HmacSHA256", ciphers);
            for (int s = 0; s < SIZES.length; s++) {
                int size = SIZES[s];
                int messages = TOTAL / size;
                sealed[s] = new byte[messages * (size + TAG)];
                for (int i = 0; i < messages; i++) {
                    Cipher sealer = Cipher.getInstance("AES/GCM/NoPadding", ciphers);
                    sealer.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv(i)));
                    sealer.doFinal(data, i * size, size, sealed[s], i * (size + TAG));
                }
            }
        }

        /** Runs {@code op} over the 32 MiB in messages of SIZES[s] bytes; returns this thread's CPU nanoseconds. */
        long run(String op, int s) throws GeneralSecurityException {
            if (op.equals("hmacSha256")) {
                return hmac();
            }
            int size = SIZES[s];
            int messages = TOTAL / size;
            long start = THREADS.getCurrentThreadCpuTime();
            long sink = 0;
            for (int i = 0; i < messages; i++) {
                switch (op) {
                    case "sha256" -> {
                        sha256.update(data, i * size, size);
                        sink += sha256.digest()[0];
                    }
                    case "md5" -> {
                        md5.update(data, i * size, size);
                        sink += md5.digest()[0];
                    }
                    case "aesGcmEncrypt" -> {
                        gcm.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv(++counter + (1L << 40))));
                        sink += gcm.doFinal(data, i * size, size, out, 0);
                    }
                    case "aesGcmDecrypt" -> {
                        gcm.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, iv(i)));
                        sink += gcm.doFinal(sealed[s], i * (size + TAG), size + TAG, out, 0);
                    }
                    default -> throw new IllegalArgumentException(op);
                }
            }
            long cpu = THREADS.getCurrentThreadCpuTime() - start;
            if (sink == Long.MIN_VALUE) {
                System.out.print("");
            }
            return cpu;
        }

        /** HMAC_TOTAL_MIB in HMAC_MESSAGE-byte messages, each under a fresh init (the key itself fixed). */
        long hmac() throws GeneralSecurityException {
            SecretKeySpec macKey = new SecretKeySpec(key.getEncoded(), "HmacSHA256");
            int messages = (HMAC_TOTAL_MIB << 20) / HMAC_MESSAGE;
            long start = THREADS.getCurrentThreadCpuTime();
            long sink = 0;
            for (int i = 0; i < messages; i++) {
                hmac.init(macKey);
                hmac.update(data, i * HMAC_MESSAGE, HMAC_MESSAGE);
                sink += hmac.doFinal()[0];
            }
            long cpu = THREADS.getCurrentThreadCpuTime() - start;
            if (sink == Long.MIN_VALUE) {
                System.out.print("");
            }
            // scaled to TOTAL_MIB so that rate() reads MiB per CPU second for it too
            return cpu * TOTAL_MIB / HMAC_TOTAL_MIB;
        }
    }

    private static byte[] iv(long n) {
        byte[] v = new byte[12];
        for (int i = 0; i < 8; i++) {
            v[4 + i] = (byte) (n >>> (8 * i));
        }
        return v;
    }

    public static void main(String[] args) throws GeneralSecurityException {
        int measured = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        JceWarmup.run();
        AmazonCorrettoCryptoProvider.INSTANCE.assertHealthy();
        ProviderCryptoCpuTime bench = new ProviderCryptoCpuTime();
        Side jdk = bench.new Side(Security.getProvider("SUN"), Security.getProvider("SunJCE"));
        Side accp = bench.new Side(AmazonCorrettoCryptoProvider.INSTANCE, AmazonCorrettoCryptoProvider.INSTANCE);
        // per op and size: rates (MiB per CPU second) of each measured round, JDK then ACCP
        List<double[]> jdkRates = new ArrayList<>();
        List<double[]> accpRates = new ArrayList<>();
        for (int k = 0; k < OPS.length * SIZES.length; k++) {
            jdkRates.add(new double[measured]);
            accpRates.add(new double[measured]);
        }
        for (int round = 0; round < warmup + measured; round++) {
            for (int o = 0; o < OPS.length; o++) {
                for (int s = 0; s < (OPS[o].equals("hmacSha256") ? 1 : SIZES.length); s++) {
                    boolean jdkFirst = round % 2 == 0;
                    long first = (jdkFirst ? jdk : accp).run(OPS[o], s);
                    long second = (jdkFirst ? accp : jdk).run(OPS[o], s);
                    if (round >= warmup) {
                        int k = o * SIZES.length + s;
                        jdkRates.get(k)[round - warmup] = rate(jdkFirst ? first : second);
                        accpRates.get(k)[round - warmup] = rate(jdkFirst ? second : first);
                    }
                }
            }
        }
        System.out.printf("ACCP %s vs the JDK's providers, %d measured rounds after %d warm-up rounds, %d MiB per"
                + " operation, MiB per CPU second (medians, min-max)%n", AmazonCorrettoCryptoProvider.INSTANCE
                .getVersionStr(), measured, warmup, TOTAL_MIB);
        System.out.println("| operation | message | JDK | ACCP | ACCP/JDK |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (int o = 0; o < OPS.length; o++) {
            for (int s = 0; s < (OPS[o].equals("hmacSha256") ? 1 : SIZES.length); s++) {
                int k = o * SIZES.length + s;
                double[] j = jdkRates.get(k);
                double[] a = accpRates.get(k);
                System.out.printf("| %s | %s | %.0f [%.0f-%.0f] | %.0f [%.0f-%.0f] | %.2f |%n", OPS[o],
                        OPS[o].equals("hmacSha256") ? HMAC_MESSAGE + " B" : SIZES[s] == 1 << 20 ? "1 MiB" : "64 KiB", median(j), min(j), max(j), median(a), min(a),
                        max(a), median(a) / median(j));
            }
        }
    }

    private static double rate(long cpuNanos) {
        return TOTAL_MIB / (Math.max(cpuNanos, 1) / 1e9);
    }

    static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
    }
}
