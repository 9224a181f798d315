package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.net.ServerParameters;
import io.coffer.por.store.JournaledPorServer;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.MemoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pack store over the PoR server that keeps U, C and H in files, across a restart of both and an upgrade. */
class PorBlobStoreOnDiskTest {
    @TempDir
    Path dir;

    @Test
    void packsSurviveARestartOfStoreAndServerAndCloseReleasesTheServer() throws IOException {
        MasterKey key = MasterKey.random();
        MemoryBlobStore inner = new MemoryBlobStore("inner");
        byte[] pack = new byte[200_000];
        new Random(1).nextBytes(pack);
        try (JdbcMetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("meta.db"))) {
            JournaledPorServer server = JournaledPorServer.open(dir.resolve("por"), new ServerParameters(8, 2, 4096));
            try (PorBlobStore store = PorBlobStore.open(inner, meta.blockMap(), server, key,
                    dir.resolve("por.state"), new SecureRandom())) {
                store.put("p/one", BlobContent.of(pack));
                store.put("p/two", BlobContent.of(pack, 0, 5000));
                store.delete("p/two");
            }
            // close() released the server's directory lock: it opens again
            JournaledPorServer again = JournaledPorServer.open(dir.resolve("por"), null);
            try (PorBlobStore store = PorBlobStore.open(inner, meta.blockMap(), again, key,
                    dir.resolve("por.state"), new SecureRandom())) {
                assertThat(store.read("p/one", 0, pack.length)).isEqualTo(pack);
                assertThat(store.head("p/two")).isEmpty();
                assertThat(store.audit().passed()).isTrue();
                assertThat(store.repair().blocksDamaged()).isZero();
            }
        }
    }

    @Test
    void aServerFromBeforeHWasDeamortisedIsResynchronisedWhenTheStoreOpens() throws IOException {
        MasterKey key = MasterKey.random();
        MemoryBlobStore inner = new MemoryBlobStore("inner");
        byte[] pack = new byte[300_000];
        new Random(2).nextBytes(pack);
        Path por = dir.resolve("por");
        try (JdbcMetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("meta.db"))) {
            JournaledPorServer server = JournaledPorServer.open(por, new ServerParameters(8, 2, 4096));
            try (PorBlobStore store = PorBlobStore.open(inner, meta.blockMap(), server, key,
                    dir.resolve("por.state"), new SecureRandom())) {
                store.put("p/one", BlobContent.of(pack));
            }
            // the parameters file as a version before H was deamortised wrote it
            Path parameters = por.resolve("parameters");
            Files.writeString(parameters, Files.readString(parameters).replace("hLayout=deamortized\n", ""));
            JournaledPorServer old = JournaledPorServer.open(por, null);
            try (PorBlobStore store = PorBlobStore.open(inner, meta.blockMap(), old, key,
                    dir.resolve("por.state"), new SecureRandom())) {
                assertThat(Files.readString(parameters)).contains("hLayout=deamortized");
                assertThat(store.read("p/one", 0, pack.length)).isEqualTo(pack);
                assertThat(store.audit().passed()).isTrue();
                store.put("p/two", BlobContent.of(pack, 0, 70_000));
                assertThat(store.read("p/two", 0, 70_000)).isEqualTo(Arrays.copyOf(pack, 70_000));
                assertThat(store.repair().blocksDamaged()).isZero();
            }
        }
    }
}
