package io.coffer.benchmarks;

import io.coffer.sdk.crypto.JceWarmup;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Raw single-thread JCE speeds (the JDK's default providers, with whatever intrinsics the JVM uses on this CPU) over
 * one 16 MiB buffer of random bytes: MD5, SHA-256, AES-256-CTR (Cipher.update in 1 MiB slices), AES-256-GCM fed in
 * 16 KiB slices, GMAC (GCM over associated data only) and HmacSHA256.
 *
 * <p>{@link JceWarmup} runs first in every fork unless {@code warmJce=false}, so these are steady-state (intrinsic)
 * speeds.
 *
 * <p>One benchmark invocation processes the whole 16 MiB buffer and counts as 16 operations
 * ({@link OperationsPerInvocation}), so the score in ops/s <b>is MiB/s</b>.
 *
 * <p>Run: {@code benchmarks/run.sh jmh CryptoBaselineBenchmark}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class CryptoBaselineBenchmark {
    static final int SIZE_MIB = 16;
    private static final int SIZE = SIZE_MIB << 20;
    private static final int CTR_SLICE = 1 << 20;
    private static final int GCM_SLICE = 16 << 10;

    private byte[] data;
    private byte[] out;
    private MessageDigest md5;
    private MessageDigest sha256;
    private Mac hmac;
    private Cipher ctr;
    private Cipher gcm;
    private SecretKeySpec aesKey;
    private byte[] gcmIv;
    private long gcmCounter;
    private byte[] sealed;

    /**
     * Whether {@link JceWarmup} runs first (steady state); {@code -p warmJce=false} shows a fresh JVM, where AES-CTR
     * stays on the per-block path until {@code CounterMode.implCrypt} has been called about 5,000 times.
     */
    @Param({"true"})
    public boolean warmJce;

    @Setup
    public void setUp() throws GeneralSecurityException {
        if (warmJce) {
            JceWarmup.run();
        }
        data = Data.random(SIZE, 1);
        out = new byte[SIZE + 16];
        md5 = MessageDigest.getInstance("MD5");
        sha256 = MessageDigest.getInstance("SHA-256");
        hmac = Mac.getInstance("HmacSHA256");
        hmac.init(new SecretKeySpec(Data.random(32, 2), "HmacSHA256"));
        ctr = Cipher.getInstance("AES/CTR/NoPadding");
        gcm = Cipher.getInstance("AES/GCM/NoPadding");
        aesKey = new SecretKeySpec(Data.random(32, 3), "AES");
        gcmIv = new byte[12];
        sealed = new byte[SIZE + 16 * SIZE_MIB];
        for (int i = 0; i < SIZE_MIB; i++) {
            // a fresh Cipher per chunk: the JCE refuses to encrypt twice under one key and IV in a row
            Cipher sealer = Cipher.getInstance("AES/GCM/NoPadding");
            sealer.init(Cipher.ENCRYPT_MODE, aesKey, new GCMParameterSpec(128, new byte[12]));
            sealer.doFinal(data, i << 20, 1 << 20, sealed, i * ((1 << 20) + 16));
        }
        if (warmJce) {
            // GHASH.processBlocks gets its CLMUL stub only once compiled, which one call per 16 MiB never achieves
            // within a run (JceWarmup does the same for AES-CTR's implCrypt)
            for (int i = 0; i < 20_000; i++) {
                gmac(16 << 10);
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(SIZE_MIB)
    public byte[] md5() {
        md5.update(data, 0, SIZE);
        return md5.digest();
    }

    @Benchmark
    @OperationsPerInvocation(SIZE_MIB)
    public byte[] sha256() {
        sha256.update(data, 0, SIZE);
        return sha256.digest();
    }

    @Benchmark
    @OperationsPerInvocation(SIZE_MIB)
    public byte[] hmacSha256() {
        hmac.update(data, 0, SIZE);
        return hmac.doFinal();
    }

    /** AES-256-CTR, zero IV as the chunk cipher uses, one {@code Cipher.update} per 1 MiB slice. */
    @Benchmark
    @OperationsPerInvocation(SIZE_MIB)
    public byte[] aesCtr() throws GeneralSecurityException {
        ctr.init(Cipher.ENCRYPT_MODE, aesKey, new IvParameterSpec(new byte[16]));
        int done = 0;
        while (done < SIZE) {
            done += ctr.update(data, done, CTR_SLICE, out, done);
        }
        ctr.doFinal(out, done);
        return out;
    }

    /**
     * GMAC: AES-256-GCM with the whole buffer as associated data (one {@code updateAAD} call) and nothing to encrypt, i.e. only the GHASH tag over it. What a keyed
     * polynomial MAC over a stored chunk's ciphertext would cost, measured for the large-GET analysis
     * (docs/BENCHMARKS.md, "Chunk read path"; an alternative to re-hashing the plaintext with SHA-256).
     */
    @Benchmark
    @OperationsPerInvocation(SIZE_MIB)
    public byte[] gmac() throws GeneralSecurityException {
        return gmac(SIZE);
    }

    private byte[] gmac(int length) throws GeneralSecurityException {
        gcmCounter++;
        for (int i = 0; i < 8; i++) {
            gcmIv[4 + i] = (byte) (gcmCounter >>> (8 * i));
        }
        gcm.init(Cipher.ENCRYPT_MODE, aesKey, new GCMParameterSpec(128, gcmIv));
        gcm.updateAAD(data, 0, length);
        gcm.doFinal(out, 0);
        return out;
    }

    /**
     * AES-256-GCM decryption and tag check in place, one {@code doFinal} per 1 MiB chunk (ciphertext and tag): what
     * reading a chunk sealed with AES-GCM costs, against {@code ChunkPipelineBenchmark.readPath}.
     */
    @Benchmark
    @OperationsPerInvocation(SIZE_MIB)
    public byte[] aesGcmOpen1m() throws GeneralSecurityException {
        int chunk = 1 << 20;
        for (int i = 0; i < SIZE_MIB; i++) {
            int at = i * (chunk + 16);
            gcm.init(Cipher.DECRYPT_MODE, aesKey, new GCMParameterSpec(128, new byte[12]));
            gcm.doFinal(sealed, at, chunk + 16, out, i * chunk);
        }
        return out;
    }

    /** AES-256-GCM (fresh 96-bit IV per message), fed in 16 KiB slices, tag appended at the end. */
    @Benchmark
    @OperationsPerInvocation(SIZE_MIB)
    public byte[] aesGcm16k() throws GeneralSecurityException {
        gcmCounter++;
        for (int i = 0; i < 8; i++) {
            gcmIv[4 + i] = (byte) (gcmCounter >>> (8 * i));
        }
        gcm.init(Cipher.ENCRYPT_MODE, aesKey, new GCMParameterSpec(128, gcmIv));
        int done = 0;
        int written = 0;
        while (done < SIZE) {
            written += gcm.update(data, done, GCM_SLICE, out, written);
            done += GCM_SLICE;
        }
        gcm.doFinal(out, written);
        return out;
    }
}
