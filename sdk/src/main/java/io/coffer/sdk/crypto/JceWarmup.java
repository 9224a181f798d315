package io.coffer.sdk.crypto;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the JCE's hot methods to their compiled, CPU-intrinsic form when an engine starts, once per JVM, on a
 * background thread.
 *
 * <p>Why: HotSpot uses the AES-NI stub for {@code CounterMode.implCrypt} (AES-CTR) only once that method is compiled
 * at tier 4, after about 5,000 invocations. The engine calls it a few times per chunk, so a fresh JVM would encrypt
 * and decrypt through the per-block path for its first gigabytes: measured 162 MiB/s instead of 4,673 MiB/s
 * (docs/BENCHMARKS.md). Twenty thousand calls on 64 bytes cost a fraction of a second.
 */
public final class JceWarmup {
    private static final Logger LOG = LoggerFactory.getLogger(JceWarmup.class);
    private static final int CALLS = 20_000;
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    /** Written with the loop's result so that the loop cannot be optimised away. */
    private static volatile long sink;

    private JceWarmup() {
    }

    /** Starts the warm-up unless it ran already in this JVM. */
    public static void startOnce() {
        if (STARTED.compareAndSet(false, true)) {
            Thread t = new Thread(JceWarmup::run, "coffer-jce-warmup");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            t.start();
        }
    }

    /** Runs the warm-up on the calling thread (benchmarks call it to measure steady state from the first shot). */
    public static void run() {
        long start = System.nanoTime();
        try {
            byte[] in = new byte[64];
            byte[] out = new byte[64 + 16];
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(new byte[32], "HmacSHA256"));
            Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
            SecretKeySpec aes = new SecretKeySpec(new byte[32], "AES");
            ChunkCipher chunks = new ChunkCipher();
            ChunkKey key = ChunkKey.of(new byte[32]);
            byte[] hash = chunks.hash(in, 0, in.length);
            byte[] iv = new byte[12];
            long acc = 0;
            for (int i = 0; i < CALLS; i++) {
                md5.update(in);
                acc += md5.digest()[0];
                mac.update(in);
                acc += mac.doFinal()[0];
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
            LOG.debug("JCE warm-up: {} calls in {} ms", CALLS, (System.nanoTime() - start) / 1_000_000);
        } catch (GeneralSecurityException | RuntimeException e) {
            LOG.warn("JCE warm-up failed (first requests will be slower): {}", e.toString());
        }
    }
}
