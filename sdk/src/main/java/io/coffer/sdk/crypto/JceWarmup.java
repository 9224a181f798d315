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
 * and decrypt through the per-block path, many times slower, for its first gigabytes (docs/BENCHMARKS.md, "Figures
 * the code cites"). AES-GCM's wide stub is the same, and is used only for inputs of several KiB. Twenty thousand
 * calls on 64 bytes and five thousand on 16 KiB cost a fraction of a second.
 */
public final class JceWarmup {
    private static final Logger LOG = LoggerFactory.getLogger(JceWarmup.class);
    private static final int CALLS = 20_000;
    /** Lengths of the larger warm-up chunks: block-aligned or not, below and above the JDK's GCM split points. */
    private static final int[] NARROW_LENGTHS = {16 << 10, (16 << 10) + 5, 7680, 7680 * 2 + 16, 1027, 4096};
    private static final int[] WIDE_LENGTHS = {(64 << 10) + 16, (128 << 10) + 9, 1 << 20, (1 << 20) + 23};
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
            ChunkCipher chunks = new ChunkCipher(new byte[32]);
            ChunkKey key = ChunkKey.of(new byte[32]);
            byte[] hash = chunks.hash(in, 0, in.length);
            // a format-1 chunk (AES-CTR under K itself, see ChunkCipher) so that reading old packs is warm too
            Cipher ctr = Cipher.getInstance("AES/CTR/NoPadding");
            ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key.rawBytesForCipher(), "AES"),
                    new IvParameterSpec(new byte[16]));
            byte[] legacy = ctr.doFinal(in);
            byte[] legacyCopy = new byte[legacy.length];
            byte[] chunk = new byte[WIDE_LENGTHS[WIDE_LENGTHS.length - 1]];
            byte[] sealed = new byte[ChunkCipher.sealedLength(chunk.length)];
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
                chunks.seal(key, in, 0, in.length, out, 0);
                chunks.open(key, out, 0, out.length, in.length, hash);
                acc += out[0];
                System.arraycopy(legacy, 0, legacyCopy, 0, legacy.length);
                chunks.open(key, legacyCopy, 0, legacy.length, in.length, hash);
                if (i % 4 == 0) {
                    // GCM takes its wide paths only for inputs of several KiB, and compiled code that meets a length
                    // class it never saw falls back to the interpreter, for seconds of chunks (docs/BENCHMARKS.md)
                    int n = i % 64 == 0 ? WIDE_LENGTHS[(i / 64) % WIDE_LENGTHS.length]
                            : NARROW_LENGTHS[(i / 4) % NARROW_LENGTHS.length];
                    chunks.seal(key, chunk, 0, n, sealed, 0);
                    chunks.open(key, sealed, 0, ChunkCipher.sealedLength(n), n, hash);
                    acc += sealed[0];
                }
            }
            sink = acc;
            LOG.debug("JCE warm-up: {} calls in {} ms", CALLS, (System.nanoTime() - start) / 1_000_000);
        } catch (GeneralSecurityException | RuntimeException e) {
            LOG.warn("JCE warm-up failed (first requests will be slower): {}", e.toString());
        }
    }
}
