package io.coffer.sdk.key;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.keyserver.client.KeyServerClient;
import io.coffer.keyserver.client.LocalEvaluator;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.server.KeyServer;
import io.coffer.keyserver.server.KeyServerInit;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.BlobInfo;
import io.coffer.sdk.blob.MemoryBlobStore;
import io.coffer.sdk.crypto.ChunkKey;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.TestData;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Server-aided keys: embedded and remote give message-locked keys; a dead key server costs dedup, never a write. */
class OprfKeySourceTest {
    @TempDir
    Path dir;

    @Test
    void embeddedKeysAreMessageLockedAndBoundToTheMasterKey() throws Exception {
        MasterKey master = MasterKey.random();
        byte[] h1 = TestData.bytes(1, 32);
        byte[] h2 = TestData.bytes(2, 32);
        List<ChunkKey> a = OprfKeySource.embedded(master).keysFor(List.of(h1, h2, h1));
        List<ChunkKey> b = OprfKeySource.embedded(master).keysFor(List.of(h1));
        List<ChunkKey> other = OprfKeySource.embedded(MasterKey.random()).keysFor(List.of(h1));
        assertThat(a.get(0)).isEqualTo(a.get(2)).isEqualTo(b.get(0)).isNotEqualTo(a.get(1));
        assertThat(other.get(0)).isNotEqualTo(a.get(0));
    }

    @Test
    void remoteKeysEqualTheSameKeyEvaluatedLocally() throws Exception {
        KeyServerDirectory ks = init();
        try (KeyServer server = KeyServer.builder().directory(ks.root()).httpsPort(0).udpPort(0).rateLimit("none")
                .workerThreads(2).start();
             OprfKeySource remote = OprfKeySource.remote(client(ks, server.httpsPort(), KeyServerClient.Transport.V1))) {
            OprfKeySource local = OprfKeySource.local(LocalEvaluator.fromDirectory(ks.root()));
            List<byte[]> hashes = List.of(TestData.bytes(3, 32), TestData.bytes(4, 32));
            assertThat(remote.keysFor(hashes)).isEqualTo(local.keysFor(hashes));
            assertThat(remote.remote()).isTrue();
        }
    }

    @Test
    void killingTheKeyServerMidUploadFallsBackToRandomKeysAndDedupResumesAfterRestart() throws Exception {
        KeyServerDirectory ks = init();
        int https;
        int udp;
        try (ServerSocket s = new ServerSocket(0); DatagramSocket d = new DatagramSocket(0)) {
            https = s.getLocalPort();
            udp = d.getLocalPort();
        }
        KeyServer[] server = {start(ks, https, udp)};
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        MemoryBlobStore blobs = new MemoryBlobStore();
        try (Coffer coffer = Coffer.builder().blobStore(blobs)
                .metadataStore(JdbcMetadataStore.sqlite(dir.resolve("meta.db"))).masterKey(MasterKey.random())
                .keySource(OprfKeySource.remote(client(ks, https, KeyServerClient.Transport.V2)))
                .keyBatchChunks(4).keySourcePause(Duration.ofMillis(200)).meterRegistry(meters).build()) {
            coffer.createBucket("bkt", "t");
            int size = 24 << 20;
            coffer.putObject(PutObjectRequest.of("bkt", "first", size), TestData.stream(1, size));
            long afterFirst = bytes(blobs);
            coffer.putObject(PutObjectRequest.of("bkt", "again", size), TestData.stream(1, size));
            assertThat(bytes(blobs) - afterFirst).as("dedup through the key server").isLessThan(size / 100);
            assertThat(meters.counter("coffer.keysource.fallbacks").count()).isZero();

            // the key server dies once half of the body has been read
            // new data: the client's cache of recent answers cannot hide the outage
            InputStream body = new FilterInputStream(TestData.stream(2, size)) {
                private long read;

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    if (read >= size / 2 && server[0] != null) {
                        server[0].close();
                        server[0] = null;
                    }
                    int n = super.read(b, off, len);
                    read += Math.max(0, n);
                    return n;
                }
            };
            coffer.putObject(PutObjectRequest.of("bkt", "during-outage", size), body);
            assertThat(meters.counter("coffer.keysource.fallbacks").count()).isPositive();
            try (ObjectContent c = coffer.getObject("bkt", "during-outage")) {
                assertThat(TestData.md5Hex(c.stream())).isEqualTo(TestData.md5Hex(TestData.stream(2, size)));
            }

            server[0] = start(ks, https, udp);
            Thread.sleep(300); // past the engine's key-source pause
            double fallbacks = meters.counter("coffer.keysource.fallbacks").count();
            long beforeBack = bytes(blobs);
            coffer.putObject(PutObjectRequest.of("bkt", "after-restart", size), TestData.stream(2, size));
            assertThat(meters.counter("coffer.keysource.fallbacks").count()).as("the server answers again")
                    .isEqualTo(fallbacks);
            // chunks that got random keys during the outage do not dedup; those keyed before it do
            long growth = bytes(blobs) - beforeBack;
            assertThat(growth).isGreaterThan(size / 3).isLessThan(size * 9L / 10);
            long beforeDedup = bytes(blobs);
            coffer.putObject(PutObjectRequest.of("bkt", "dedup-again", size), TestData.stream(2, size));
            assertThat(bytes(blobs) - beforeDedup).as("dedup resumes").isLessThan(size / 100);
        } finally {
            if (server[0] != null) {
                server[0].close();
            }
        }
    }

    private KeyServerDirectory init() throws Exception {
        return KeyServerInit.create(dir.resolve("ks"), new KeyServerInit.Options()
                .algorithm(KeyServerInit.OprfAlgorithm.P256).client("gateway"));
    }

    private static KeyServer start(KeyServerDirectory ks, int https, int udp) throws Exception {
        return KeyServer.builder().directory(ks.root()).httpsPort(https).udpPort(udp).rateLimit("none")
                .workerThreads(2).start();
    }

    private static KeyServerClient client(KeyServerDirectory ks, int httpsPort, KeyServerClient.Transport t)
            throws Exception {
        return KeyServerClient.builder().host("localhost").httpsPort(httpsPort).transport(t)
                .credentials(ks.clientCertificate("gateway"), ks.clientKey("gateway"), ks.caCertificate())
                .publicKey(ks.oprfPublicKey(ks.currentKeyId())).timeout(Duration.ofSeconds(2)).build();
    }

    private static long bytes(MemoryBlobStore blobs) throws IOException {
        return blobs.list("").toList().stream().mapToLong(BlobInfo::size).sum();
    }
}
