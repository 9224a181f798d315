package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.por.server.PorServer;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A put that replaces a pack, killed after its map switch and before the old copy's first block (its header) is
 * zeroed, leaves two complete copies of the name in U: the map rebuilt from U (the database lost) takes the new one,
 * the newer header (with equal times it would take the lower first block, the old copy: {@link PackVersions} makes a
 * replacing pack's time later than the replaced one's in every case, {@code PackVersionsTest} shows it with times
 * ahead of the clock), and every pack reads back.
 */
class PorBlobStoreReplaceTest extends WithPorStore {
    private static final int BLOCK = 4096;

    @Test
    void aReplacingPutKilledBeforeTheOldCopyIsZeroedRebuildsToTheNewVersion() throws IOException {
        f = PorStoreFixture.open(dir, 6, 1, BLOCK);
        for (int r = 0; r < 5; r++) {
            int round = r;
            String name = "p/x" + round;
            f.put(f.store, name, 2 * BLOCK, 10 * round); // three blocks, the header's included
            Entry old = f.metadata.blockMap().entry(name).orElseThrow();
            boolean[] armed = {true};
            PorServer dying = (PorServer) Proxy.newProxyInstance(PorServer.class.getClassLoader(),
                    new Class<?>[] {PorServer.class}, (proxy, method, args) -> {
                        // the process dies at the first zero block's write, before the server applies it
                        if (armed[0] && method.getName().equals("write") && Arrays.equals((byte[]) args[1],
                                new byte[BLOCK])) {
                            armed[0] = false;
                            throw new IllegalStateException("killed");
                        }
                        try {
                            return method.invoke(f.server, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            PorBlobStore doomed = f.reopen(dying);

            assertThatThrownBy(() -> f.put(doomed, name, 2 * BLOCK, 10 * round + 1)).hasStackTraceContaining(
                    "killed");

            Entry replacing = f.metadata.blockMap().entry(name).orElseThrow();
            assertThat(replacing.created()).isAfter(old.created());
            assertThat(replacing.blocks()[0]).isGreaterThan(old.blocks()[0]); // the old copy has the lower first block
            byte[] replacement = new byte[2 * BLOCK]; // the map switch was committed: the new version is the pack
            new Random(10 * round + 1).nextBytes(replacement);
            f.packs.put(name, replacement);
            PorBlobStore restarted = f.reopen(dir.resolve("fresh-" + round + ".db")); // the map from U alone
            assertThat(f.metadata.blockMap().entry(name)).contains(replacing);
            f.assertEveryPackReadsBack(restarted);
        }
    }
}
