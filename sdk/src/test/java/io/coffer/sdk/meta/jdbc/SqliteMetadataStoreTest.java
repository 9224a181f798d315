package io.coffer.sdk.meta.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.meta.NewChunks;
import io.coffer.sdk.meta.ObjectRecord;
import io.coffer.sdk.meta.PackRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The metadata store contract on the SQLite dialect, plus SQLite-specific settings. */
class SqliteMetadataStoreTest extends MetadataStoreContractTest {
    @TempDir
    Path dir;

    Path file() {
        return dir.resolve("meta.db");
    }

    @Override
    JdbcMetadataStore openStore() {
        return JdbcMetadataStore.sqlite(file());
    }

    @Override
    JdbcMetadataStore reopenStore() {
        return JdbcMetadataStore.sqlite(file());
    }

    @Override
    Connection rawConnection() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file());
    }

    @Override
    void assertIndexRangeScan(String plan) {
        assertThat(plan).contains("SEARCH objects USING INDEX").contains("key_utf8>?").contains("key_utf8<?")
                .doesNotContain("SCAN");
    }

    @Override
    void awaitBlockedWriter() throws InterruptedException {
        // the store's single writer waits in BEGIN IMMEDIATE (busy timeout) for the other connection's write lock
        Thread.sleep(300);
    }

    @Test
    void databaseUsesWalAndForeignKeys() throws SQLException {
        store.createBucket(new Bucket("b", "alice", null, T0));
        assertThat(Files.exists(dir.resolve("meta.db-wal"))).isTrue();
        try (Connection c = rawConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualToIgnoringCase("wal");
            }
            try (ResultSet rs = s.executeQuery("SELECT MAX(version) FROM schema_version")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(SchemaMigrations.SCHEMA_VERSION);
            }
        }
        assertThat(store.bucket("b")).map(Bucket::region).isEmpty();
    }

    @Test
    void writesQueuedBehindACommitShareOneTransactionAndAFailingOneIsUndoneAlone() throws Exception {
        bucket("b");
        store.commitObject(object("b", "kept", "v1", 1), newChunks("p1", 1), Precondition.NONE, null);
        long before = store.writeTransactions();
        ExecutorService executor = Executors.newCachedThreadPool();
        try (Connection raw = rawConnection()) {
            raw.setAutoCommit(false);
            try (Statement s = raw.createStatement()) {
                // holds SQLite's write lock, so that the next write waits in BEGIN IMMEDIATE while others queue
                s.executeUpdate("INSERT INTO buckets (name, owner, region, created) VALUES ('held', 'x', NULL, 0)");
            }
            Future<?> first = executor.submit(commit("k0", "v0", Precondition.NONE, NewChunks.NONE, 1));
            awaitBlockedWriter();
            List<Future<?>> queued = List.of(
                    executor.submit(commit("a", "va", Precondition.NONE, NewChunks.NONE, 1)),
                    executor.submit(commit("kept", "v2", new Precondition(null, true), NewChunks.NONE, 1)),
                    executor.submit(commit("missing", "vm", Precondition.NONE, newChunks("p2", 3), 3, 99)),
                    executor.submit(commit("c", "vc", Precondition.NONE, NewChunks.NONE, 1)));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (store.queuedWrites() < queued.size() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(store.queuedWrites()).isEqualTo(queued.size());
            assertThat(first).isNotDone();
            raw.rollback();

            first.get(30, TimeUnit.SECONDS);
            queued.get(0).get(30, TimeUnit.SECONDS);
            assertThatFailsWith(queued.get(1), ErrorCode.PRECONDITION_FAILED);
            assertThatFailsWith(queued.get(2), ErrorCode.CONFLICT_RETRY);
            queued.get(3).get(30, TimeUnit.SECONDS);
        } finally {
            executor.shutdownNow();
        }
        // the first write alone, then the four queued ones in one transaction
        assertThat(store.writeTransactions() - before).isEqualTo(2);
        assertThat(store.object("b", "kept")).map(ObjectRecord::versionId).contains("v1");
        assertThat(store.object("b", "missing")).isEmpty();
        assertThat(store.object("b", "a")).map(ObjectRecord::versionId).contains("va");
        assertThat(store.object("b", "c")).map(ObjectRecord::versionId).contains("vc");
        assertThat(refs(1)).isEqualTo(4);
        assertThat(store.refCount(id(3))).isEmpty();
        assertThat(store.packs()).extracting(PackRecord::name).containsExactly("p1");
        assertThat(store.bucket("held")).isEmpty();
    }

    @Test
    void readsThroughReusedStatementsSeeEveryLaterCommit() {
        bucket("b");
        store.registerPack(new PackRecord("p", 1000, T0), newChunks("p", 1).chunks());
        for (int i = 0; i < 12; i++) {
            // more rounds than read connections, so every reader reuses its cached statement on a newer snapshot
            put("b", "k", "v" + i, 1);
            assertThat(store.object("b", "k")).map(ObjectRecord::versionId).contains("v" + i);
            assertThat(refs(1)).isEqualTo(1);
        }
    }

    private Callable<Optional<ObjectRecord>> commit(String key, String version, Precondition precondition,
                                                    NewChunks chunks, int... refs) {
        return () -> store.commitObject(object("b", key, version, refs), chunks, precondition, null);
    }

    private static void assertThatFailsWith(Future<?> write, ErrorCode code) {
        assertThatThrownBy(() -> write.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(CofferException.class,
                        e -> assertThat(e.code()).isEqualTo(code));
    }
}
