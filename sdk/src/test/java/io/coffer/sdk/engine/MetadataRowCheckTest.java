package io.coffer.sdk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectContent;
import io.coffer.sdk.PutObjectRequest;
import io.coffer.sdk.blob.MemoryBlobStore;
import io.coffer.sdk.crypto.MasterKey;
import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import io.coffer.sdk.testing.PostgresServer;
import io.coffer.sdk.testing.TestData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A metadata store whose rows were swapped or edited (a shared PostgreSQL's operator, say) makes a read fail with an
 * integrity error rather than serve another object: the sealed manifest is checked against the row it came from.
 */
class MetadataRowCheckTest {
    /** Above the inline limit: chunked into a pack. */
    private static final int CHUNKED = 100_000;
    /** Below it: the object's bytes live in its sealed manifest. */
    private static final int INLINE = 1_000;

    @TempDir
    Path dir;

    @Test
    void rowsWithTheirVersionAndManifestSwappedFailToReadAndFsckReportsThem() throws Exception {
        for (int size : new int[] {CHUNKED, INLINE}) {
            try (TestEngine e = TestEngine.open(dir.resolve("s" + size))) {
                e.coffer.createBucket("bkt", "t");
                // equal sizes and ETag-free columns: only the manifest's bucket and key tell the rows apart
                e.coffer.putObject(PutObjectRequest.of("bkt", "alice", size), TestData.stream(1, size));
                e.coffer.putObject(PutObjectRequest.of("bkt", "bob", size), TestData.stream(2, size));
                assertContent(e, "alice", 1, size);

                swap(e.dir, "alice", "bob", "version_id", "manifest");

                assertIntegrityError(e, "alice");
                assertIntegrityError(e, "bob");
                // HEAD answers from the row alone (it does not open the manifest): the row's own size and ETag
                assertThat(e.coffer.headObject("bkt", "alice").size()).isEqualTo(size);
                assertThat(e.coffer.fsck(false).damaged()).anySatisfy(d -> assertThat(d).startsWith("bkt/alice: ")
                        .contains("does not match its sealed manifest"));
            }
        }
    }

    @Test
    void rowsSwappedWholeButForBucketAndKeyFailToRead() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "alice", CHUNKED), TestData.stream(1, CHUNKED));
            e.coffer.putObject(PutObjectRequest.of("bkt", "bob", 2 * CHUNKED), TestData.stream(2, 2 * CHUNKED));

            swap(e.dir, "alice", "bob", "version_id", "size", "etag", "last_modified", "attributes", "manifest",
                    "chunk_refs");

            assertIntegrityError(e, "alice");
            assertIntegrityError(e, "bob");
        }
    }

    @Test
    void rowsSwappedInASharedPostgresFailToRead() throws Exception {
        PostgresServer pg = PostgresServer.get();
        String url = pg.createDatabase("rowcheck_" + ProcessHandle.current().pid());
        try (Coffer coffer = Coffer.builder().blobStore(new MemoryBlobStore())
                .metadataStore(JdbcMetadataStore.postgres(url, pg.user(), pg.password()))
                .masterKey(MasterKey.random()).build()) {
            coffer.createBucket("bkt", "t");
            coffer.putObject(PutObjectRequest.of("bkt", "alice", CHUNKED), TestData.stream(1, CHUNKED));
            coffer.putObject(PutObjectRequest.of("bkt", "bob", CHUNKED), TestData.stream(2, CHUNKED));
            try (Connection c = DriverManager.getConnection(url, pg.user(), pg.password())) {
                swap(c, "alice", "bob", "version_id", "manifest");
            }

            for (String key : new String[] {"alice", "bob"}) {
                assertThatThrownBy(() -> coffer.getObject("bkt", key).close())
                        .isInstanceOfSatisfying(CofferException.class, x -> assertThat(x.code())
                                .isEqualTo(ErrorCode.INTEGRITY_ERROR))
                        .hasMessageContaining("does not match its sealed manifest");
            }
        }
    }

    @Test
    void anEditedSizeFailsTheRead() throws Exception {
        try (TestEngine e = TestEngine.open(dir)) {
            e.coffer.createBucket("bkt", "t");
            e.coffer.putObject(PutObjectRequest.of("bkt", "alice", CHUNKED), TestData.stream(1, CHUNKED));
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + e.dir.resolve("coffer.db"));
                 PreparedStatement ps = c.prepareStatement("UPDATE objects SET size = size - 1")) {
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }

            assertThatThrownBy(() -> e.coffer.getObject("bkt", "alice").close())
                    .isInstanceOfSatisfying(CofferException.class, x -> assertThat(x.code())
                            .isEqualTo(ErrorCode.INTEGRITY_ERROR))
                    .hasMessageContaining("size " + (CHUNKED - 1) + " in the row, " + CHUNKED + " in the manifest");
        }
    }

    private static void assertContent(TestEngine e, String key, long seed, int size) throws Exception {
        try (ObjectContent c = e.coffer.getObject("bkt", key)) {
            assertThat(c.stream().readAllBytes()).isEqualTo(TestData.stream(seed, size).readAllBytes());
        }
    }

    private static void assertIntegrityError(TestEngine e, String key) {
        assertThatThrownBy(() -> e.coffer.getObject("bkt", key).close())
                .isInstanceOfSatisfying(CofferException.class, x -> assertThat(x.code())
                        .isEqualTo(ErrorCode.INTEGRITY_ERROR))
                .hasMessageContaining("does not match its sealed manifest");
    }

    /** Swaps the given columns between two rows of bucket "bkt" of the SQLite file in {@code dir}. */
    static void swap(Path dir, String a, String b, String... columns) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("coffer.db"))) {
            swap(c, a, b, columns);
        }
    }

    /** Swaps the given columns between two rows of bucket "bkt", as an operator with SQL access could. */
    static void swap(Connection c, String a, String b, String... columns) throws Exception {
        c.setAutoCommit(false);
        Object[][] rows = new Object[2][];
        String[] keys = {a, b};
        for (int i = 0; i < 2; i++) {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + String.join(", ", columns)
                    + " FROM objects WHERE bucket = 'bkt' AND key_utf8 = ?")) {
                ps.setBytes(1, keys[i].getBytes(StandardCharsets.UTF_8));
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    rows[i] = new Object[columns.length];
                    for (int col = 0; col < columns.length; col++) {
                        rows[i][col] = rs.getObject(col + 1);
                    }
                }
            }
        }
        for (int i = 0; i < 2; i++) {
            try (PreparedStatement ps = c.prepareStatement("UPDATE objects SET "
                    + String.join(" = ?, ", columns) + " = ? WHERE bucket = 'bkt' AND key_utf8 = ?")) {
                for (int col = 0; col < columns.length; col++) {
                    ps.setObject(col + 1, rows[1 - i][col]);
                }
                ps.setBytes(columns.length + 1, keys[i].getBytes(StandardCharsets.UTF_8));
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
        }
        c.commit();
    }
}
