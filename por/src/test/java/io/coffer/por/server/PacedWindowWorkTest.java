package io.coffer.por.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.DeamortizedSchedule;
import io.coffer.por.code.ForwardingLevelStore;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.LogState;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.code.Part;
import io.coffer.por.field.Segments;
import io.coffer.por.store.PorStorage;
import io.coffer.por.store.ServerStorage;
import io.coffer.por.store.WindowStorage;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Through the honest server whose storage keeps a window, the C rebuild that ends an epoch writes no vector, and
 * every write (one H add each) writes at most the add's vectors of H plus the paced rebuild's share of C, bounded in k
 * and not in n; through storage without a window, the epoch's end writes all 2n vectors of C.
 */
class PacedWindowWorkTest {
    private static final byte[] SEALED = new byte[ChecksumSealer.SEALED_BYTES];

    @Test
    void everyWriteOfSeveralEpochsWritesABoundedNumberOfVectorsAtKEightToTwelve() {
        for (int k = 8; k <= 12; k += 2) {
            Counted counted = new Counted(k, true);
            HonestPorServer<PorStorage> server = counted.server();
            assertThat(server.pacesCRebuild()).isTrue();
            // the H add's vectors (BoundedServerWorkTest) and the share's: 4 per store butterfly, 2 per group store
            long bound = 2 + 4 * (k - 1) + 4 * (PacedCRebuild.unitsPerStep(k) + 1);
            SplittableRandom random = new SplittableRandom(k);
            long worst = 0;
            long endOfEpoch = -1;
            for (int epoch = 0; epoch < 3; epoch++) {
                for (int add = 1; add <= 1 << k; add++) {
                    counted.writes = 0;
                    byte[] block = new byte[16];
                    random.nextBytes(block);
                    server.write(random.nextInt(1 << k), block, SEALED, written(k, add));
                    worst = Math.max(worst, counted.writes);
                }
                counted.writes = 0;
                server.rebuildC(sealedC(k));
                endOfEpoch = Math.max(endOfEpoch, counted.writes);
            }
            assertThat(worst).as("k = %d", k).isLessThanOrEqualTo(bound).isLessThan(1L << k);
            assertThat(endOfEpoch).as("the epoch's end at k = %d", k).isZero();
        }
    }

    @Test
    void withoutAWindowTheEpochsEndWritesAllOfC() {
        int k = 8;
        Counted counted = new Counted(k, false);
        HonestPorServer<PorStorage> server = counted.server();
        assertThat(server.pacesCRebuild()).isFalse();
        for (int add = 1; add <= 1 << k; add++) {
            server.write(add - 1, new byte[16], SEALED, written(k, add));
        }
        counted.writes = 0;
        server.rebuildC(sealedC(k));
        assertThat(counted.writes).isGreaterThanOrEqualTo(2L << k);
    }

    @Test
    void theWindowKeepsAtMostOneCopyPerWriteAndSwitchesAtStepsToComplete() {
        int k = 8;
        MemoryPorServer server = new MemoryPorServer(k, 16);
        server.rebuildC(sealedC(k));
        for (int add = 1; add <= 1 << k; add++) {
            server.write(add - 1, new byte[16], SEALED, written(k, add));
        }
        server.rebuildC(sealedC(k));
        long steps = PacedCRebuild.stepsToComplete(k);
        for (int add = 1; add <= steps; add++) {
            assertThat(server.windowProgress()).as("add %d", add).isNotNull();
            assertThat(server.windowProgress()[1]).isEqualTo(Math.min(add - 1, 7));
            server.write(add % 7, new byte[16], SEALED, written(k, add)); // the same few indices: copies once each
        }
        assertThat(server.windowProgress()).isNull();
    }

    static SealedVectors written(int hK, int count) {
        int size = DeamortizedSchedule.outputs(hK, count).size();
        byte[][] sealed = new byte[size][];
        Arrays.fill(sealed, SEALED);
        return new SealedVectors(count, sealed, sealed);
    }

    static SealedLevel sealedC(int k) {
        byte[][] sealed = new byte[1 << k][];
        Arrays.fill(sealed, SEALED);
        return new SealedLevel(k + 1, sealed, sealed);
    }

    /** A server over memory storage whose every vector store (H, C, the next C) counts its writes. */
    private static final class Counted {
        final ServerStorage inner;
        final boolean window;
        long writes;

        Counted(int k, boolean window) {
            this.inner = new ServerStorage(k, 0, 16, Segments.count(16) + 1);
            this.window = window;
        }

        HonestPorServer<PorStorage> server() {
            Class<?> type = window ? WindowStorage.class : PorStorage.class;
            PorStorage storage = (PorStorage) Proxy.newProxyInstance(PorStorage.class.getClassLoader(),
                    new Class<?>[] {type}, (proxy, method, args) -> {
                        try {
                            Object out = method.invoke(inner, args);
                            return out instanceof LevelStore store ? counting(store) : out;
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            HonestPorServer<PorStorage> server = new HonestPorServer<>(storage, LogState.empty(inner.cParameters()
                    .k()));
            server.rebuildC(sealedC(inner.cParameters().k()));
            return server;
        }

        private LevelStore counting(LevelStore store) {
            return new ForwardingLevelStore(store) {
                @Override
                public void write(int level, Part part, int index, int[] vector) {
                    writes++;
                    super.write(level, part, index, vector);
                }
            };
        }
    }
}
