package io.coffer.sdk.digest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lanes give every body the JDK's MD5, whatever the read sizes, the number of bodies in flight and how their reads
 * interleave; a reader reuses its buffer only after release, and an abandoned body leaves the others' digests intact.
 * A body opened while few others are in flight is digested by the JDK's MD5; the tests keep bodies open to put the
 * others in lanes ({@link #inLanes}), and run the JDK's ones too.
 */
class Md5LanesTest {
    private Md5Lanes lanes;
    /** Kept open (never fed) by the tests that need the lane path: bodies opened beside them share lanes. */
    private final List<BodyDigest> companions = new ArrayList<>();

    @BeforeEach
    void start() {
        lanes = Md5Lanes.createIfSupported(r -> {
            Thread t = new Thread(r, "md5-lanes-test");
            t.setDaemon(true);
            return t;
        });
        assertThat(lanes).as("the suite runs with --add-modules jdk.incubator.vector").isNotNull();
    }

    @AfterEach
    void stop() {
        lanes.close();
    }

    /** Opens a body in lanes: another body is in flight. */
    private BodyDigest inLanes() {
        while (companions.size() < Md5Lanes.LANES_FROM) {
            companions.add(lanes.open());
        }
        return lanes.open();
    }

    /** RFC 1321, appendix A.5, the test suite. */
    @Test
    void rfc1321TestSuiteDigests() throws IOException {
        String[][] suite = {
            {"", "d41d8cd98f00b204e9800998ecf8427e"},
            {"a", "0cc175b9c0f1b6a831c399e269772661"},
            {"abc", "900150983cd24fb0d6963f7d28e17f72"},
            {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
            {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
            {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
            {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
                "57edf4a22be3c955ac49da2e2107b67a"},
        };
        for (boolean lane : new boolean[] {false, true}) {
            for (String[] v : suite) {
                BodyDigest d = lane ? inLanes() : lanes.open();
                byte[] bytes = v[0].getBytes(StandardCharsets.US_ASCII);
                d.read(bytes, 0, bytes.length);
                assertThat(HexFormat.of().formatHex(d.finish())).as("%s, in lanes: %s", v[0], lane).isEqualTo(v[1]);
                assertThat(d.count()).isEqualTo(bytes.length);
            }
        }
    }

    @Test
    void everyLengthAroundTheBlockAndPaddingBoundaries() throws Exception {
        Random random = new Random(7);
        for (int len = 0; len <= 200; len++) {
            byte[] body = new byte[len];
            random.nextBytes(body);
            BodyDigest d = inLanes();
            for (int at = 0; at < len; ) {
                int n = Math.min(len - at, 1 + random.nextInt(70));
                d.read(body, at, n);
                at += n;
            }
            assertThat(d.finish()).as("length %d", len).isEqualTo(jdkMd5(body));
        }
    }

    @Test
    void manyBodiesInFlightGetTheirOwnDigests() throws Exception {
        int bodies = 20; // more than a hasher's lanes: they take turns
        ExecutorService pool = Executors.newFixedThreadPool(bodies);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < bodies; i++) {
                int seed = i;
                results.add(pool.submit(() -> digestLikeAReader(seed)));
            }
            for (Future<Boolean> f : results) {
                assertThat(f.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Feeds a body through a small reused buffer, as the chunk reader does: before overwriting bytes it releases
     * them, and the digest must still be the body's.
     */
    private boolean digestLikeAReader(int seed) throws Exception {
        Random random = new Random(seed);
        byte[] body = new byte[random.nextInt(3 << 20)];
        random.nextBytes(body);
        byte[] buf = new byte[64 * 1024 + random.nextInt(1000)];
        BodyDigest d = lanes.open(); // the first to open is likely alone (the JDK's digest), the others in lanes
        int fill = 0;
        long streamOffsetOfBuf = 0;
        for (int at = 0; at < body.length; ) {
            int n = Math.min(body.length - at, 1 + random.nextInt(20_000));
            if (fill + n > buf.length) {
                d.release(streamOffsetOfBuf + fill); // every byte of buf is about to be overwritten
                streamOffsetOfBuf += fill;
                fill = 0;
                n = Math.min(n, buf.length);
            }
            System.arraycopy(body, at, buf, fill, n);
            d.read(buf, fill, n);
            fill += n;
            at += n;
        }
        return MessageDigest.isEqual(d.finish(), jdkMd5(body)) && d.count() == body.length;
    }

    /** Bytes short of a block are copied aside: releasing them must not wait for bytes that never come. */
    @Test
    void releaseReturnsForBytesShortOfABlock() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            for (int i = 0; i < 500; i++) {
                BodyDigest d = inLanes();
                byte[] body = new byte[1 + i % 63 + (i % 3) * 64];
                d.read(body, 0, body.length);
                d.release(body.length);
                assertThat(d.finish()).isEqualTo(jdkMd5(body));
            }
        });
    }

    /**
     * A reader that grows its buffer drops the old one; bytes of it the lanes have not hashed yet (below the backlog)
     * must not keep it from the garbage collector for the rest of the body.
     */
    @Test
    void aBufferTheReaderDroppedIsReleasedBeforeTheBodyEnds() throws Exception {
        BodyDigest d = inLanes();
        byte[] old = new byte[100_000];
        new Random(5).nextBytes(old);
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        md5.update(old);
        md5.update(new byte[10]);
        byte[] expected = md5.digest();
        d.read(old, 0, old.length);
        WeakReference<byte[]> dropped = new WeakReference<>(old);
        old = null;
        byte[] grown = new byte[200_000];
        d.read(grown, 0, 10); // the reader's next read lands in its new buffer
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (dropped.get() != null && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(dropped.get()).as("the dropped buffer was collected").isNull();
        assertThat(d.finish()).isEqualTo(expected);
    }

    @Test
    void anAbandonedBodyLeavesTheOthersIntact() throws Exception {
        byte[] body = new byte[1 << 20];
        new Random(3).nextBytes(body);
        BodyDigest kept = inLanes();
        BodyDigest dropped = lanes.open();
        kept.read(body, 0, body.length / 2);
        dropped.read(body, 0, body.length);
        dropped.abandon();
        kept.read(body, body.length / 2, body.length - body.length / 2);
        assertThat(kept.finish()).isEqualTo(jdkMd5(body));
        assertThatThrownBy(dropped::finish).isInstanceOf(IOException.class);
    }

    @Test
    void aClosedHasherFailsItsReadersInsteadOfHangingThem() throws Exception {
        BodyDigest d = lanes.open();
        d.read(new byte[100], 0, 100);
        lanes.close();
        assertThatThrownBy(d::finish).isInstanceOf(IOException.class);
    }

    @Test
    void offPropertyOrNoModuleLeavesBodiesToTheirOwnThreads() throws Exception {
        String before = System.getProperty(Md5Lanes.OFF_PROPERTY);
        System.setProperty(Md5Lanes.OFF_PROPERTY, "off");
        try {
            assertThat(Md5Lanes.createIfSupported(Thread::new)).isNull();
        } finally {
            if (before == null) {
                System.clearProperty(Md5Lanes.OFF_PROPERTY);
            } else {
                System.setProperty(Md5Lanes.OFF_PROPERTY, before);
            }
        }
    }

    private static byte[] jdkMd5(byte[] body) throws Exception {
        return MessageDigest.getInstance("MD5").digest(body);
    }
}
