package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.DirectoryBlobStore;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * fsck, gc and reindex with {@code --json} (one object, parsed here) and {@code --dry-run} (which changes nothing on
 * the backend or in the metadata store), through the command line on a directory store.
 */
class MaintenanceVerbsJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ORPHAN = "blobs/p/ab/ab" + "0".repeat(30);

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
        JsonNode json() throws IOException {
            assertThat(out.strip()).as("one line").doesNotContain("\n");
            return JSON.readTree(out);
        }
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = CofferCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int rc = cl.execute(args);
        return new Run(rc, out.toString(), err.toString());
    }

    /** Bucket "docs" with three objects, and an orphan pack of 4321 bytes last modified two days ago. */
    private Path store() throws IOException {
        Path data = dir.resolve("data");
        try (Coffer coffer = Coffer.builder().directory(data).build()) {
            coffer.createBucket("docs", "alice");
            for (int i = 0; i < 3; i++) {
                byte[] body = new byte[100_000 + i];
                new Random(i).nextBytes(body);
                coffer.putObject(PutObjectRequest.of("docs", "k" + i, body.length), new ByteArrayInputStream(body));
            }
        }
        Path orphan = data.resolve(ORPHAN);
        Files.createDirectories(orphan.getParent());
        Files.write(orphan, new byte[4321]);
        Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minus(Duration.ofDays(2))));
        return data;
    }

    /** Every file under the directory with its size and modification time. */
    private static Map<String, String> files(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).collect(Collectors.toMap(p -> root.relativize(p).toString(), p -> {
                try {
                    return Files.size(p) + "@" + Files.getLastModifiedTime(p);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }, (a, b) -> a, TreeMap::new));
        }
    }

    @Test
    void fsckJsonReportsCountsAndOrphansAsOneObject() throws Exception {
        Path data = store();
        Run r = run("fsck", "--json", "--read-data", "--data", data.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = r.json();
        assertThat(j.get("clean").asBoolean()).isTrue();
        assertThat(j.get("readData").asBoolean()).isTrue();
        assertThat(j.get("objectsChecked").asLong()).isEqualTo(3);
        assertThat(j.get("chunksChecked").asLong()).isPositive();
        assertThat(j.get("bytesRead").asLong()).isGreaterThanOrEqualTo(300_000);
        assertThat(j.get("damaged")).isEmpty();
        assertThat(j.get("orphans")).extracting(JsonNode::asText).containsExactly("p/ab/ab" + "0".repeat(30));
        assertThat(iterable(j.fieldNames())).containsExactlyInAnyOrder("clean", "readData",
                "objectsChecked", "chunksChecked", "bytesRead", "damaged", "orphans");
    }

    @Test
    void fsckJsonOfADamagedStoreExitsOneAndNamesTheDamage() throws Exception {
        Path data = store();
        try (Stream<Path> manifests = Files.walk(data.resolve("blobs/m"))) {
            Files.delete(manifests.filter(Files::isRegularFile).findFirst().orElseThrow());
        }
        Run r = run("fsck", "--json", "--data", data.toString());
        assertThat(r.exit()).isEqualTo(1);
        JsonNode j = r.json();
        assertThat(j.get("clean").asBoolean()).isFalse();
        assertThat(j.get("damaged")).hasSize(1);
        assertThat(j.get("damaged").get(0).asText()).contains("missing from the backend");
    }

    @Test
    void gcDryRunChangesNothingAndReportsWhatThePassThenDoes() throws Exception {
        Path data = store();
        Map<String, String> before = files(data.resolve("blobs"));
        Run dry = run("gc", "--dry-run", "--json", "--data", data.toString());
        assertThat(dry.exit()).as(dry.err()).isZero();
        JsonNode plan = dry.json();
        assertThat(plan.get("dryRun").asBoolean()).isTrue();
        assertThat(plan.get("blobsDeleted").asLong()).isEqualTo(1);
        assertThat(plan.get("bytesFreed").asLong()).isEqualTo(4321);
        assertThat(files(data.resolve("blobs"))).isEqualTo(before);

        Run text = run("gc", "--dry-run", "--data", data.toString());
        assertThat(text.out()).contains("bytes freed (would be): 4321").contains("dry run: nothing was changed");
        assertThat(files(data.resolve("blobs"))).isEqualTo(before);

        Run gc = run("gc", "--json", "--data", data.toString());
        assertThat(gc.exit()).as(gc.err()).isZero();
        JsonNode done = gc.json();
        assertThat(done.get("dryRun").asBoolean()).isFalse();
        for (String field : new String[] {"packsRewritten", "packsRetired", "blobsDeleted", "bytesCopied",
            "bytesFreed"}) {
            assertThat(done.get(field).asLong()).as(field).isEqualTo(plan.get(field).asLong());
        }
        assertThat(data.resolve(ORPHAN)).doesNotExist();
    }

    @Test
    void reindexDryRunReportsWhatWouldBeRestoredAndChangesNothing() throws Exception {
        Path data = store();
        Files.delete(data.resolve(ORPHAN)); // zeros: reindex would call it a damaged pack
        Map<String, String> blobs = files(data.resolve("blobs"));
        Set<Path> scratchBefore = scratchDirectories();
        Run dry = run("reindex", "--dry-run", "--json", "--data", data.toString());
        assertThat(dry.exit()).as(dry.err()).isZero();
        JsonNode j = dry.json();
        assertThat(j.get("dryRun").asBoolean()).isTrue();
        assertThat(j.get("clean").asBoolean()).isTrue();
        assertThat(j.get("buckets").asInt()).isEqualTo(1);
        assertThat(j.get("objects").asLong()).isEqualTo(3);
        assertThat(j.get("damaged")).isEmpty();
        assertThat(files(data.resolve("blobs"))).isEqualTo(blobs);
        assertThat(scratchDirectories()).as("the scratch metadata is deleted").isEqualTo(scratchBefore);
        // the real metadata store was neither emptied nor refused: the store still reads as before
        try (Coffer coffer = Coffer.builder().directory(data).build()) {
            assertThat(coffer.listObjects("docs", "", null, 10).objects()).hasSize(3);
        }
    }

    @Test
    void reindexJsonReportsWhatItRestored() throws Exception {
        Path data = store();
        Files.delete(data.resolve(ORPHAN));
        Files.delete(data.resolve("coffer.db"));
        Run r = run("reindex", "--json", "--data", data.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = r.json();
        assertThat(j.get("dryRun").asBoolean()).isFalse();
        assertThat(j.get("objects").asLong()).isEqualTo(3);
        assertThat(j.get("packs").asInt()).isPositive();
        assertThat(j.get("chunks").asLong()).isPositive();
        assertThat(run("fsck", "--json", "--data", data.toString()).json().get("objectsChecked").asLong())
                .isEqualTo(3);
    }

    @Test
    void fsckOfAStoreThatAnEngineKeepsWritingFindsNoDamage() throws Exception {
        Path data = store();
        // a gateway's engine on the same blobs, SQLite file and key file that does not hold the data directory's lock,
        // as gateways on one PostgreSQL and one S3 backend hold none of each other's
        try (Coffer live = Coffer.builder().blobStore(new DirectoryBlobStore(data.resolve("blobs")))
                .metadataStore(JdbcMetadataStore.sqlite(data.resolve("coffer.db")))
                .masterKeyFile(data.resolve("master.key")).build()) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger written = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    for (int i = 0; !stop.get(); i++) {
                        byte[] body = new byte[50_000];
                        new Random(100 + i).nextBytes(body);
                        // new keys and overwrites of three keys
                        live.putObject(PutObjectRequest.of("docs", "live/" + (i % 2 == 0 ? i : i % 3), body.length),
                                new ByteArrayInputStream(body));
                        written.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "live-writer");
            writer.start();
            while (written.get() < 2 && failure.get() == null) {
                Thread.sleep(10);
            }
            Run r;
            try {
                r = run("fsck", "--json", "--data", data.toString());
            } finally {
                stop.set(true);
                writer.join(30_000);
            }
            assertThat(failure.get()).isNull();
            assertThat(r.exit()).as(r.out() + r.err()).isZero();
            JsonNode j = r.json();
            assertThat(j.get("damaged")).isEmpty();
            assertThat(j.get("objectsChecked").asLong()).isGreaterThanOrEqualTo(5);
        }
    }

    private static Set<Path> scratchDirectories() throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("coffer-reindex-dry-run"))
                    .collect(Collectors.toSet());
        }
    }

    private static <T> Iterable<T> iterable(java.util.Iterator<T> it) {
        return () -> it;
    }
}
