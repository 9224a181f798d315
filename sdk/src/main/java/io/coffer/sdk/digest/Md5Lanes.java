package io.coffer.sdk.digest;

import io.coffer.sdk.vector.VectorApi;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MD5 of many bodies on few threads, up to {@link VectorMd5Kernel#LANES} bodies per vector instruction (the
 * multi-buffer form; docs/DECISIONS.md, "MD5 of several bodies at once"). S3's ETag is each body's MD5, MD5 is
 * sequential within a body, and on the write path it is the slowest pass: one thread per body runs at the scalar
 * rate (the JDK's intrinsic, about 570 MiB per CPU-second on the benchmark machine), where the lanes of 256-bit
 * vectors hash eight bodies in the time of about three. Each {@link #open stream} is fed ranges of its reader's buffer,
 * as the per-body digest thread was ({@link BodyDigest}). The hasher thread lets each body's bytes gather up to
 * {@link #BACKLOG} (or until its reader waits), then takes every body with a whole block waiting in one round, so the
 * rounds fill the lanes; a body alone in a round runs on {@link ScalarMd5}. A lane body's state is four ints, so it
 * moves between lanes and that loop block by block; the bytes of a block split between two reads are copied (at most
 * 63 per read). A body with too few others to share lanes with is digested by the JDK's MD5 instead
 * ({@link Hasher#decide}). Streams stay on the hasher they were given at open, which fills one hasher's lanes before
 * the next.
 */
public final class Md5Lanes implements AutoCloseable {
    /** The system property that leaves every body to its own digest thread ("off"). */
    public static final String OFF_PROPERTY = "coffer.md5.lanes";
    private static final Logger LOG = LoggerFactory.getLogger(Md5Lanes.class);
    private static final int LANES = VectorMd5Kernel.LANES;
    /**
     * Other bodies in flight on a hasher from which a body goes to the lanes when the hasher first takes its bytes:
     * with fewer, rounds would fill two lanes or one, which cost more CPU per byte than the JDK's intrinsic (a round
     * costs the same however many lanes it fills, and {@link ScalarMd5}, which runs a lane body alone, is slower than
     * the intrinsic).
     */
    static final int LANES_FROM = 2;
    /** Ranges a stream may queue before its reader waits (records only: the bytes stay in the reader's buffer). */
    private static final int QUEUE_RANGES = 64;
    /**
     * Unhashed bytes a lane body may hold before the hasher takes a round. Hashing each read as it arrives left one
     * body per round (the hasher outruns the network), on the scalar loop; waiting lets the others' bytes gather, so
     * a round fills the lanes. The bytes wait in the readers' buffers; a reader that needs its buffer back, or its
     * digest, starts a round at once.
     */
    private static final int BACKLOG = 256 << 10;
    /** Blocks per lane and round before the hasher looks again for streams with new data (256 KiB). */
    private static final int MAX_BURST_BLOCKS = BACKLOG / 64;

    private final Hasher[] hashers;

    private Md5Lanes(int threads, ThreadFactory threadFactory) {
        hashers = new Hasher[threads];
        for (int i = 0; i < threads; i++) {
            hashers[i] = new Hasher();
            threadFactory.newThread(hashers[i]).start();
        }
    }

    /**
     * The lanes where the Vector API is usable with 256-bit vectors (started with {@code --add-modules
     * jdk.incubator.vector}, {@code -Dcoffer.md5.lanes} not {@code off}), with a hasher thread per two processors (at
     * most four); null elsewhere, where each body needs a digest of its own.
     */
    public static Md5Lanes createIfSupported(ThreadFactory threadFactory) {
        boolean vector = VectorApi.choose("MD5", OFF_PROPERTY, false, () -> VectorMd5Kernel.preferredBits(),
                () -> true); // lambdas: linked only when called, i.e. with the module present
        if (!vector) {
            return null;
        }
        int threads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors() / 2));
        LOG.info("MD5: {} bodies per 256-bit vector, {} hasher thread(s)", LANES, threads);
        return new Md5Lanes(threads, threadFactory);
    }

    /** A stream to digest one body, on the hasher with the most streams that still has a free lane. */
    public BodyDigest open() {
        Hasher best = null;
        int bestOpen = -1;
        for (Hasher h : hashers) {
            int open = h.openStreams();
            if (open < LANES && open > bestOpen) {
                best = h;
                bestOpen = open;
            }
        }
        if (best == null) { // every lane taken: the hasher with the fewest streams
            for (Hasher h : hashers) {
                if (best == null || h.openStreams() < best.openStreams()) {
                    best = h;
                }
            }
        }
        return best.open();
    }

    @Override
    public void close() {
        for (Hasher h : hashers) {
            h.close();
        }
    }

    /** A range of a reader's buffer waiting for the digest. */
    private record Range(byte[] buf, int off, int len) {
    }

    /** One hasher thread and its streams; every field of a stream is guarded by the hasher's lock. */
    private static final class Hasher implements Runnable {
        private final ReentrantLock lock = new ReentrantLock();
        /** The hasher waits here for data. */
        private final Condition work = lock.newCondition();
        private final List<Stream> streams = new ArrayList<>();
        private boolean closed;
        /** Where the next round starts looking, so that more than {@link #LANES} streams take turns. */
        private int next;

        // the round being hashed (the hasher thread's; written under the lock, read outside it)
        private final VectorMd5Kernel kernel = new VectorMd5Kernel();
        private final Stream[] chosen = new Stream[LANES];
        private final int[][] states = new int[LANES][];
        private final byte[][] in = new byte[LANES][];
        private final int[] off = new int[LANES];
        private final int[] blocks = new int[LANES];
        /** A body on the JDK's digest whose head range this round takes whole, or null; and that range's bytes. */
        private Stream solo;
        private byte[] soloIn;
        private int soloOff;
        private int soloLen;

        int openStreams() {
            lock.lock();
            try {
                return streams.size();
            } finally {
                lock.unlock();
            }
        }

        Stream open() {
            lock.lock();
            try {
                Stream s = new Stream(this);
                streams.add(s);
                return s;
            } finally {
                lock.unlock();
            }
        }

        void close() {
            lock.lock();
            try {
                closed = true;
                work.signalAll();
                for (Stream s : streams) {
                    s.wake.signal();
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void run() {
            while (true) {
                int lanes;
                lock.lock();
                try {
                    while ((lanes = choose()) == 0 && solo == null) {
                        if (closed) {
                            return;
                        }
                        work.awaitUninterruptibly();
                    }
                } finally {
                    lock.unlock();
                }
                Throwable failure = null;
                try {
                    hash(lanes);
                } catch (RuntimeException | Error e) {
                    failure = e;
                }
                lock.lock();
                try {
                    advance(lanes, failure);
                } finally {
                    lock.unlock();
                }
            }
        }

        /**
         * Picks the lane streams with a whole block waiting and how many blocks each takes this round, and at most one
         * body on the JDK's digest with a range waiting ({@link #solo}); finishes the digests of ended streams and
         * moves split blocks on the way. Returns how many lanes it picked. Under the lock.
         */
        private int choose() {
            int lanes = 0;
            int n = streams.size();
            int start = n == 0 ? 0 : next % n;
            boolean finished = false;
            boolean urgent = false;
            for (Stream s : streams) {
                urgent |= s.urgent();
            }
            if (!urgent) {
                return 0;
            }
            for (Stream s : streams) {
                if (!s.decided && s.count > 0) {
                    decide(s);
                }
            }
            for (int i = 0; i < n && (lanes < LANES || solo == null); i++) {
                Stream s = streams.get((start + i) % n);
                if (s.jdk != null ? solo != null : lanes == LANES) {
                    continue;
                }
                if (s.settle()) {
                    Range r = s.ranges.peekFirst();
                    if (s.jdk != null) {
                        solo = s;
                        soloIn = r.buf();
                        soloOff = r.off() + s.pos;
                        soloLen = r.len() - s.pos;
                    } else {
                        chosen[lanes] = s;
                        states[lanes] = s.state;
                        in[lanes] = r.buf();
                        off[lanes] = r.off() + s.pos;
                        blocks[lanes] = Math.min(MAX_BURST_BLOCKS, (r.len() - s.pos) / ScalarMd5.BLOCK);
                        lanes++;
                    }
                } else if (s.digest != null) {
                    finished = true;
                }
            }
            next = start + 1;
            if (finished) {
                streams.removeIf(s -> s.digest != null);
            }
            if (lanes > 1) {
                // no lane goes on alone: past the second-longest, the longest waits for the next round
                int longest = 0;
                int second = 0;
                for (int l = 0; l < lanes; l++) {
                    if (blocks[l] > longest) {
                        second = longest;
                        longest = blocks[l];
                    } else if (blocks[l] > second) {
                        second = blocks[l];
                    }
                }
                for (int l = 0; l < lanes; l++) {
                    blocks[l] = Math.min(blocks[l], second);
                }
            }
            return lanes;
        }

        /**
         * Puts a body that the hasher takes bytes from for the first time in the lanes if at least {@link #LANES_FROM}
         * other bodies are in flight here, else on the JDK's digest; for good, since neither state moves to the other.
         * Bodies in flight together (a multipart upload's parts) share the lanes, as those on the JDK's digest end and
         * new ones start; a body alone, or with one other, keeps the JDK's speed. Under the lock.
         */
        private void decide(Stream s) {
            s.decided = true;
            if (streams.size() - 1 < LANES_FROM) {
                s.jdk = BodyDigest.jdkMd5();
            }
        }

        /** Hashes the chosen blocks; outside the lock (the readers keep those bytes until released). */
        private void hash(int lanes) {
            if (solo != null) {
                solo.jdk.update(soloIn, soloOff, soloLen);
            }
            if (lanes == 1) {
                for (int b = 0; b < blocks[0]; b++) {
                    ScalarMd5.compress(states[0], in[0], off[0] + b * ScalarMd5.BLOCK);
                }
            } else if (lanes > 1) {
                kernel.compress(lanes, states, in, off, blocks);
            }
        }

        /** Moves the chosen streams past the bytes just hashed, or fails them. Under the lock. */
        private void advance(int lanes, Throwable failure) {
            for (int l = 0; l < lanes; l++) {
                advance(chosen[l], blocks[l] * ScalarMd5.BLOCK, failure);
                chosen[l] = null;
                in[l] = null;
            }
            if (solo != null) {
                advance(solo, soloLen, failure);
                solo = null;
                soloIn = null;
            }
        }

        private void advance(Stream s, int hashed, Throwable failure) {
            if (s.abandoned) {
                return;
            }
            if (failure != null) {
                s.failure = failure;
                streams.remove(s);
                s.wake.signal();
            } else {
                s.consume(hashed);
            }
        }
    }

    /** One body's digest; its reader's calls wait on its hasher's lock. */
    private static final class Stream implements BodyDigest {
        private final Hasher hasher;
        /** Where the reader waits for its queue, its released bytes or its digest. */
        private final Condition wake;
        private final ArrayDeque<Range> ranges = new ArrayDeque<>();
        /** Whether the hasher chose between the lanes and the JDK's digest yet ({@link Hasher#decide}). */
        private boolean decided;
        /** The JDK's digest for a body with too few others to share lanes with; null for a lane body. */
        private MessageDigest jdk;
        /** A lane body's state, its split block ({@link #carry}, copied, so released) and its length. */
        private final int[] state = ScalarMd5.initialState();
        private final byte[] carry = new byte[ScalarMd5.BLOCK];
        private int carryLen;
        /** Where the head range's unhashed bytes start. */
        private int pos;
        /** Bytes fed (the reader's count; also read under the lock). */
        private long count;
        /** Bytes the hasher no longer needs: hashed, or copied into {@link #carry}. */
        private long released;
        /** The reader waits until {@link #released} reaches this (or for the digest: Long.MAX_VALUE). */
        private long waitFor = Long.MAX_VALUE;
        private boolean waiting;
        private boolean ended;
        private boolean abandoned;
        private byte[] digest;
        private Throwable failure;

        Stream(Hasher hasher) {
            this.hasher = hasher;
            this.wake = hasher.lock.newCondition();
        }

        /**
         * Whether the head range has bytes for this round: a whole block for a lane body (a block split between reads
         * is hashed here, on the scalar loop), any for a body on the JDK's digest. Once the body has ended and every
         * byte is hashed, makes the digest. Under the lock.
         */
        boolean settle() {
            if (abandoned || failure != null || digest != null) {
                return false;
            }
            for (Range r = ranges.peekFirst(); r != null; r = ranges.peekFirst()) {
                int left = r.len() - pos;
                if (jdk != null || carryLen == 0 && left >= ScalarMd5.BLOCK) {
                    return true;
                }
                int take = Math.min(ScalarMd5.BLOCK - carryLen, left);
                System.arraycopy(r.buf(), r.off() + pos, carry, carryLen, take);
                carryLen += take;
                consume(take);
                if (carryLen == ScalarMd5.BLOCK) {
                    ScalarMd5.compress(state, carry, 0);
                    carryLen = 0;
                }
            }
            if (ended) {
                digest = jdk != null ? jdk.digest() : ScalarMd5.finish(state, carry, carryLen, count);
                wake.signal();
            }
            return false;
        }

        /**
         * Whether the reader waits for the hasher, the body's unhashed bytes reached {@link #BACKLOG}, or they span two
         * of the reader's buffers: a reader that grew its buffer has dropped the old one, which only the unhashed
         * ranges keep from the garbage collector (64 bodies at once held the load test's heap until it ran out).
         */
        boolean urgent() {
            return waiting || ended || count - released >= BACKLOG
                    || !ranges.isEmpty() && ranges.peekFirst().buf() != ranges.peekLast().buf();
        }

        /** The head range's next {@code n} bytes are no longer needed. Under the lock. */
        void consume(int n) {
            pos += n;
            released += n;
            Range r = ranges.peekFirst();
            if (r != null && pos == r.len()) {
                ranges.pollFirst();
                pos = 0;
            }
            if (waiting && released >= waitFor) {
                wake.signal();
            }
        }

        @Override
        public void read(byte[] buf, int off, int len) throws IOException {
            if (len == 0) {
                return;
            }
            hasher.lock.lock();
            try {
                while (ranges.size() >= QUEUE_RANGES) {
                    // room comes when the head range is done
                    await(released + ranges.peekFirst().len() - pos);
                }
                check();
                Range last = ranges.peekLast();
                ranges.addLast(new Range(buf, off, len));
                long before = count - released;
                count += len;
                if (before < BACKLOG && count - released >= BACKLOG || last != null && last.buf() != buf) {
                    hasher.work.signal();
                }
            } finally {
                hasher.lock.unlock();
            }
        }

        @Override
        public void release(long end) throws IOException {
            hasher.lock.lock();
            try {
                while (released < Math.min(end, count)) {
                    await(Math.min(end, count));
                }
            } finally {
                hasher.lock.unlock();
            }
        }

        @Override
        public long count() {
            return count;
        }

        @Override
        public byte[] finish() throws IOException {
            hasher.lock.lock();
            try {
                ended = true;
                hasher.work.signal();
                while (digest == null) {
                    await(Long.MAX_VALUE);
                }
                return digest;
            } finally {
                hasher.lock.unlock();
            }
        }

        @Override
        public void abandon() {
            hasher.lock.lock();
            try {
                abandoned = true;
                ranges.clear();
                hasher.streams.remove(this);
            } finally {
                hasher.lock.unlock();
            }
        }

        /**
         * Waits once for the hasher to release {@code target} bytes or finish the digest, after checking that it can
         * still answer. Under the lock.
         */
        private void await(long target) throws IOException {
            check();
            waitFor = target;
            waiting = true;
            hasher.work.signal(); // a waiting reader makes its body urgent
            try {
                wake.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted waiting for MD5");
            } finally {
                waiting = false;
            }
        }

        private void check() throws IOException {
            if (failure != null) {
                throw new IOException("MD5 failed", failure);
            }
            if (hasher.closed) {
                throw new IOException("MD5 hasher closed");
            }
            if (abandoned) {
                throw new IOException("MD5 abandoned");
            }
        }
    }
}
