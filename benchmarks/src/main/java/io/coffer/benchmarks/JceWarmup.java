package io.coffer.benchmarks;

import io.coffer.sdk.crypto.ChunkCipher;
import io.coffer.sdk.crypto.ChunkKey;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Brings the JCE's hot methods to their C2-compiled, intrinsic form before a measurement, as in a process that has
 * been serving traffic for a while.
 *
 * <p>Why it is needed: HotSpot replaces {@code CounterMode.implCrypt} (AES-CTR) with its AES-NI stub only when it
 * compiles that method at tier 4, which happens after about 5,000 invocations. {@link ChunkCipher} calls it once per
 * 1 MiB slice, so a fresh JVM runs AES-CTR through the per-block path for its first ~5 GiB and then jumps to several
 * GiB/s: see docs/BENCHMARKS.md ({@code CryptoBaselineBenchmark.aesCtr -p warmJce=false}, and
 * {@code EngineBenchmark -p warmJce=false}). The warm-up prints how long it took.
 */
final class JceWarmup {
    private static final int CALLS = 20_000;
    private static volatile long sink;

    private JceWarmup() {
    }

    /** Calls MD5, SHA-256, HmacSHA256, AES-CTR, AES-GCM and {@link ChunkCipher} {@value #CALLS} times each on 64 B. */
    static void run() {
        long start = System.nanoTime();
        try {
            byte[] in = Data.random(64, 99);
            byte[] out = new byte[64 + 16];
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Data.random(32, 98), "HmacSHA256"));
            Cipher ctr = Cipher.getInstance("AES/CTR/NoPadding");
            Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
            SecretKeySpec aes = new SecretKeySpec(Data.random(32, 97), "AES");
            ChunkCipher chunks = new ChunkCipher();
            ChunkKey key = ChunkKey.of(Data.random(32, 96));
            byte[] hash = chunks.hash(in, 0, in.length);
            byte[] iv = new byte[12];
            long acc = 0;
            for (int i = 0; i < CALLS; i++) {
                md5.update(in);
                acc += md5.digest()[0];
                sha.update(in);
                acc += sha.digest()[0];
                mac.update(in);
                acc += mac.doFinal()[0];
                ctr.init(Cipher.ENCRYPT_MODE, aes, new IvParameterSpec(new byte[16]));
                acc += ctr.update(in, 0, in.length, out, 0);
                ctr.doFinal(out, in.length);
                iv[0] = (byte) i;
                iv[1] = (byte) (i >>> 8);
                iv[2] = (byte) (i >>> 16);
                gcm.init(Cipher.ENCRYPT_MODE, aes, new GCMParameterSpec(128, iv));
                acc += gcm.doFinal(in, 0, in.length, out, 0);
                chunks.encrypt(key, in, 0, in.length, out, 0);
                chunks.decrypt(key, out, 0, in.length, hash);
                acc += out[0];
            }
            sink = acc;
            System.err.printf("JCE warm-up: %d calls of 7 primitives in %d ms%n", CALLS,
                    (System.nanoTime() - start) / 1_000_000);
            Thread.sleep(500); // let the compiler queue drain
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JCE warm-up failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
