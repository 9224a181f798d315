package io.coffer.benchmarks;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import io.coffer.sdk.crypto.JceWarmup;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
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
 * The JDK's providers (SUN for the digests, SunJCE for AES-GCM) against Amazon Corretto Crypto Provider (ACCP, AWS-LC
 * through JNI) on the operations the gateway's hot paths use, one thread, messages of {@code size} bytes: SHA-256
 * (the chunk hash and SigV4's payload hash), MD5 (the ETag), AES-256-GCM encryption (sealing a chunk) and decryption
 * with the tag check (opening one).
 *
 * <p>Each provider is asked for by instance ({@code getInstance(alg, provider)}), so both run in the same JVM setup
 * and neither is installed globally. Every invocation processes 16 MiB as 16 MiB / {@code size} messages and counts as
 * 16 operations ({@link OperationsPerInvocation}): the score in ops/s <b>is MiB/s</b>.
 *
 * <p>Run: {@code benchmarks/run.sh jmh ProviderCryptoBenchmark}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ProviderCryptoBenchmark {
    private static final int TOTAL_MIB = 16;
    private static final int TOTAL = TOTAL_MIB << 20;
    private static final int TAG = 16;

    /** {@code jdk}: SUN and SunJCE; {@code accp}: Amazon Corretto Crypto Provider 2.4.1. */
    @Param({"jdk", "accp"})
    public String provider;

    /** Bytes per message. */
    @Param({"65536", "1048576"})
    public int size;

    private byte[] data;
    private byte[] out;
    private byte[] sealed;
    private int messages;
    private MessageDigest md5;
    private MessageDigest sha256;
    private Cipher gcm;
    private Provider cipherProvider;
    private SecretKeySpec key;
    private final byte[] iv = new byte[12];
    private long counter;

    @Setup
    public void setUp() throws GeneralSecurityException {
        JceWarmup.run();
        Provider digests;
        if ("accp".equals(provider)) {
            AmazonCorrettoCryptoProvider.INSTANCE.assertHealthy();
            digests = AmazonCorrettoCryptoProvider.INSTANCE;
            cipherProvider = AmazonCorrettoCryptoProvider.INSTANCE;
        } else if ("jdk".equals(provider)) {
            digests = Security.getProvider("SUN");
            cipherProvider = Security.getProvider("SunJCE");
        } else {
            throw new IllegalArgumentException("provider is jdk or accp, not " + provider);
        }
        messages = TOTAL / size;
        data = Data.random(TOTAL, 1);
        out = new byte[size + TAG];
        md5 = MessageDigest.getInstance("MD5", digests);
        sha256 = MessageDigest.getInstance("SHA-256", digests);
        gcm = Cipher.getInstance("AES/GCM/NoPadding", cipherProvider);
        key = new SecretKeySpec(Data.random(32, 3), "AES");
        sealed = new byte[messages * (size + TAG)];
        for (int i = 0; i < messages; i++) {
            // a fresh Cipher per message: the JCE refuses to encrypt twice under one key and IV in a row
            Cipher sealer = Cipher.getInstance("AES/GCM/NoPadding", cipherProvider);
            sealer.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, ivFor(i)));
            sealer.doFinal(data, i * size, size, sealed, i * (size + TAG));
        }
        // the JDK's GHASH gets its CLMUL stub only once compiled (as in CryptoBaselineBenchmark)
        for (int i = 0; i < 2_000; i++) {
            encrypt(16 << 10);
        }
    }

    private static byte[] ivFor(long n) {
        byte[] v = new byte[12];
        for (int i = 0; i < 8; i++) {
            v[4 + i] = (byte) (n >>> (8 * i));
        }
        return v;
    }

    @Benchmark
    @OperationsPerInvocation(TOTAL_MIB)
    public byte[] sha256() {
        byte[] last = null;
        for (int i = 0; i < messages; i++) {
            sha256.update(data, i * size, size);
            last = sha256.digest();
        }
        return last;
    }

    @Benchmark
    @OperationsPerInvocation(TOTAL_MIB)
    public byte[] md5() {
        byte[] last = null;
        for (int i = 0; i < messages; i++) {
            md5.update(data, i * size, size);
            last = md5.digest();
        }
        return last;
    }

    /** AES-256-GCM, a fresh 96-bit IV per message, one {@code doFinal} per message, tag appended. */
    @Benchmark
    @OperationsPerInvocation(TOTAL_MIB)
    public byte[] aesGcmEncrypt() throws GeneralSecurityException {
        for (int i = 0; i < messages; i++) {
            encrypt(size);
        }
        return out;
    }

    private void encrypt(int length) throws GeneralSecurityException {
        counter++;
        for (int i = 0; i < 8; i++) {
            iv[4 + i] = (byte) (counter >>> (8 * i));
        }
        gcm.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
        gcm.doFinal(data, 0, length, out, 0);
    }

    /** AES-256-GCM decryption with the tag check, one {@code doFinal} per sealed message. */
    @Benchmark
    @OperationsPerInvocation(TOTAL_MIB)
    public byte[] aesGcmDecrypt() throws GeneralSecurityException {
        for (int i = 0; i < messages; i++) {
            gcm.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, ivFor(i)));
            gcm.doFinal(sealed, i * (size + TAG), size + TAG, out, 0);
        }
        return out;
    }
}
