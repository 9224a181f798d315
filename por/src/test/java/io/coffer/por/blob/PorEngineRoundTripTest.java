package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.por.server.MemoryPorServer;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.MemoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.BlockMapStore;
import io.coffer.sdk.meta.BlockMapStore.Entry;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine over the PoR pack store through {@code Coffer.builder().decorateBackend(...)}. */
class PorEngineRoundTripTest {
    @TempDir
    Path dir;

    @Test
    void objectsRoundTripThroughPorBlocksAndGarbageCollectedPacksFreeZeroedBlocksForReuse() throws Exception {
        MemoryBlobStore backend = new MemoryBlobStore("backend");
        MemoryPorServer server = new MemoryPorServer(11, 2, 16 << 10); // 32 MiB of U
        List<PorBlobStore> opened = new ArrayList<>();
        try (JdbcMetadataStore metadata = JdbcMetadataStore.sqlite(dir.resolve("meta.db"));
             Coffer coffer = Coffer.builder().blobStore(backend).metadataStore(metadata)
                     .masterKey(MasterKey.random()).packSize(2 << 20).gcGrace(Duration.ZERO)
                     .decorateBackend((inner, meta, key) -> {
                         PorBlobStore store = PorBlobStore.open(inner, meta.blockMap(), server, key,
                                 dir.resolve("por.state"), new SecureRandom());
                         opened.add(store);
                         return store;
                     }).build()) {
            PorBlobStore por = opened.get(0);
            BlockMapStore map = metadata.blockMap();
            coffer.createBucket("bucket", "me");
            List<byte[]> objects = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                byte[] data = new byte[(3 << 20) + 12_345 * i];
                new Random(i).nextBytes(data);
                objects.add(data);
                coffer.putObject(PutObjectRequest.of("bucket", "k" + i, data.length), new ByteArrayInputStream(data));
            }
            assertThat(backend.list("p/").toList()).isEmpty(); // every pack went to U
            List<Entry> packs = map.list("p/", null, 1000);
            assertThat(packs).isNotEmpty();
            assertThat(por.list("p/").toList()).extracting(BlobInfo::name)
                    .containsExactlyElementsOf(packs.stream().map(Entry::name).toList());
            for (int i = 0; i < 3; i++) {
                try (ObjectContent c = coffer.getObject("bucket", "k" + i)) {
                    assertThat(c.stream().readAllBytes()).isEqualTo(objects.get(i));
                }
            }

            int usedBefore = por.blocksUsed();
            coffer.deleteObject("bucket", "k0");
            Thread.sleep(5); // a chunk released in the cutoff's millisecond still counts as live
            coffer.collectGarbage();
            Thread.sleep(5);
            coffer.collectGarbage();
            List<String> remaining = map.list("p/", null, 1000).stream().map(Entry::name).toList();
            List<Entry> collected = packs.stream().filter(p -> !remaining.contains(p.name())).toList();
            assertThat(collected).isNotEmpty();
            assertThat(por.blocksUsed()).isLessThan(usedBefore);
            for (Entry gone : collected) {
                for (int b : gone.blocks()) {
                    assertThat(server.storage().u(b)).containsOnly(0);
                }
            }

            byte[] next = new byte[2 << 20];
            new Random(99).nextBytes(next);
            coffer.putObject(PutObjectRequest.of("bucket", "again", next.length), new ByteArrayInputStream(next));
            java.util.Set<Integer> freed = new java.util.HashSet<>();
            collected.forEach(e -> { for (int b : e.blocks()) { freed.add(b); } });
            boolean reused = map.list("p/", null, 1000).stream()
                    .anyMatch(e -> java.util.Arrays.stream(e.blocks()).anyMatch(freed::contains));
            assertThat(reused).as("a new pack takes freed blocks").isTrue();
            for (int i = 1; i < 3; i++) {
                try (ObjectContent c = coffer.getObject("bucket", "k" + i)) {
                    assertThat(c.stream().readAllBytes()).isEqualTo(objects.get(i));
                }
            }
            try (ObjectContent c = coffer.getObject("bucket", "again")) {
                assertThat(c.stream().readAllBytes()).isEqualTo(next);
            }
            assertThat(por.audit().passed()).isTrue();
            assertThat(coffer.fsck(true).clean()).isTrue();
        }
    }
}
