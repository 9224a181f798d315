package io.coffer.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.auth.SigV4;
import io.coffer.sdk.blob.BlobContent;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.engine.BackendLayout;
import io.coffer.sdk.engine.StoredRecords;
import io.coffer.sdk.manifest.Manifest;
import io.coffer.sdk.meta.ChunkLocation;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What a client sees over a real socket when a backend blob holding an object's chunk is damaged: damage in the first
 * chunk is found before the response starts (500 InternalError with an S3 error body); later damage can only end the
 * response early (200, a verified prefix, then the connection closes short of Content-Length).
 */
class DamagedChunkResponseTest {
    private static final int SIZE = 12 << 20;

    @TempDir
    Path dir;

    @Test
    void damageInTheFirstChunkIsAnInternalErrorBeforeAnyHeaderIsSent() throws Exception {
        try (RunningGateway g = RunningGateway.start(dir, o -> o)) {
            List<ChunkLocation> chunks = store(g);
            flipByte(chunks.get(0));
            try (RawClient c = client(g)) {
                RawClient.Response r = c.send("GET", "/bkt/k", "", Map.of(), new byte[0]);
                assertThat(r.status()).isEqualTo(500);
                assertThat(r.header("content-type")).isEqualTo("application/xml");
                assertThat(r.body()).contains("<Code>InternalError</Code>").contains("<Resource>/bkt/k</Resource>");
            }
        }
    }

    @Test
    void damageAfterTheFirstChunkEndsTheResponseAfterAVerifiedPrefix() throws Exception {
        try (RunningGateway g = RunningGateway.start(dir, o -> o)) {
            List<ChunkLocation> chunks = store(g);
            flipByte(chunks.get(chunks.size() - 1));
            try (RawClient c = client(g)) {
                String head = RawClient.signedHead("GET", "/bkt/k", "", Map.of(), emptyHash(),
                        "127.0.0.1:" + g.port(), RunningGateway.CREDENTIAL.accessKeyId(),
                        RunningGateway.CREDENTIAL.secretKey(), Instant.now());
                c.writeRaw((head + "\r\n").getBytes(StandardCharsets.UTF_8));
                RawClient.Response r = c.read(true);
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.header("content-length")).isEqualTo(Integer.toString(SIZE));
                byte[] received = readUntilClosed(c.socket.getInputStream());
                assertThat(received.length).as("the connection closes short of Content-Length").isLessThan(SIZE)
                        .isGreaterThanOrEqualTo(1 << 20);
                assertThat(received).as("every byte sent is the object's")
                        .isEqualTo(Arrays.copyOf(TestData.bytes(5, SIZE), received.length));
            }
        }
    }

    /** Stores a 12 MiB object and returns its chunks' locations in object order. */
    private List<ChunkLocation> store(RunningGateway g) throws Exception {
        try (S3Client s3 = g.clientBuilder().build()) {
            s3.createBucket(b -> b.bucket("bkt"));
            s3.putObject(b -> b.bucket("bkt").key("k"), RequestBody.fromBytes(TestData.bytes(5, SIZE)));
        }
        try (MetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("coffer.db"))) {
            ObjectRecord r = meta.object("bkt", "k").orElseThrow();
            Manifest m = StoredRecords.openManifest(MasterKey.loadOrCreate(dir.resolve("master.key")),
                    BackendLayout.manifest(r.versionId()), r.manifest());
            Map<?, ChunkLocation> locs = meta.locate(m.distinctChunkIds());
            assertThat(m.entries()).hasSizeGreaterThan(5);
            return m.entries().stream().map(e -> locs.get(e.id())).toList();
        }
    }

    private void flipByte(ChunkLocation loc) throws IOException {
        try (DirectoryBlobStore blobs = new DirectoryBlobStore(dir.resolve("blobs"))) {
            byte[] pack = blobs.read(loc.pack(), 0, (int) blobs.head(loc.pack()).orElseThrow().size());
            pack[(int) (loc.offset() + loc.length() / 2)] ^= 0x01;
            blobs.put(loc.pack(), BlobContent.of(pack));
        }
    }

    private static RawClient client(RunningGateway g) throws IOException {
        return new RawClient(g.port(), RunningGateway.CREDENTIAL.accessKeyId(), RunningGateway.CREDENTIAL.secretKey());
    }

    private static String emptyHash() {
        return SigV4.hex(SigV4.sha256().digest(new byte[0]));
    }

    /** The body bytes until the server closes the connection (a reset counts as closed). */
    private static byte[] readUntilClosed(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[64 << 10];
        try {
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                out.write(buf, 0, n);
            }
        } catch (SocketException reset) {
            // what arrived before the reset is what the client got
        }
        return out.toByteArray();
    }
}
