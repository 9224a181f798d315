package io.coffer.por.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.DeamortizedSchedule;
import io.coffer.por.code.ForwardingLevelStore;
import io.coffer.por.code.LevelStore;
import io.coffer.por.code.LogState;
import io.coffer.por.code.Part;
import io.coffer.por.field.Segments;
import io.coffer.por.store.PorStorage;
import io.coffer.por.store.ServerStorage;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Through the honest server, an add of H (a batch entering it) writes at most 2 + 4 (k - b - 1) vectors: the new
 * level-0 run and two butterflies per merged level, both parts; HAdd's worst add rewrote 2^(k-b+1).
 */
class BoundedServerWorkTest {
    private static final byte[] SEALED = new byte[ChecksumSealer.SEALED_BYTES];

    @Test
    void everyAddWritesABoundedNumberOfVectorsWhateverTheLevel() {
        int k = 11;
        int b = 1;
        int hK = k - b;
        ServerStorage inner = new ServerStorage(k, b, 16, Segments.count(16) + 1);
        CountingVectors h = new CountingVectors(inner.hVectors());
        PorStorage storage = (PorStorage) Proxy.newProxyInstance(PorStorage.class.getClassLoader(),
                new Class<?>[] {PorStorage.class}, (proxy, method, args) -> {
                    if (method.getName().equals("hVectors")) {
                        return h;
                    }
                    try {
                        return method.invoke(inner, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        HonestPorServer<PorStorage> server = new HonestPorServer<>(storage, LogState.empty(hK));
        server.rebuildC(sealedC(k));
        SplittableRandom random = new SplittableRandom(43);
        int bound = 2 + 4 * (hK - 1);
        long worst = 0;
        for (int add = 1; add <= 1 << hK; add++) {
            h.writes = 0;
            for (int slot = 0; slot < 1 << b; slot++) {
                byte[] block = new byte[16];
                random.nextBytes(block);
                boolean completes = slot == (1 << b) - 1;
                server.write(random.nextInt(1 << k), block, SEALED, completes ? written(hK, add) : null);
            }
            assertThat(h.writes).as("add %d", add).isLessThanOrEqualTo(bound);
            worst = Math.max(worst, h.writes);
        }
        assertThat(worst).as("the bound is nearly reached").isGreaterThan(bound / 2);
        assertThat(server.state().cRebuildDue()).isTrue();
    }

    private static SealedVectors written(int hK, int count) {
        int size = DeamortizedSchedule.outputs(hK, count).size();
        byte[][] sealed = new byte[size][];
        Arrays.fill(sealed, SEALED);
        return new SealedVectors(count, sealed, sealed);
    }

    private static SealedLevel sealedC(int k) {
        byte[][] sealed = new byte[1 << k][];
        Arrays.fill(sealed, SEALED);
        return new SealedLevel(k + 1, sealed, sealed);
    }

    /** H's vectors, counting the writes. */
    private static final class CountingVectors extends ForwardingLevelStore {
        long writes;

        CountingVectors(LevelStore inner) {
            super(inner);
        }

        @Override
        public void write(int level, Part part, int index, int[] vector) {
            writes++;
            super.write(level, part, index, vector);
        }
    }
}
