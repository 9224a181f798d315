package io.coffer.sdk.meta;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
        store.createBucket(new BucketRecord("b", "alice", null, T0));
        assertThat(Files.exists(dir.resolve("meta.db-wal"))).isTrue();
        try (Connection c = rawConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualToIgnoringCase("wal");
            }
            try (ResultSet rs = s.executeQuery("SELECT version FROM schema_version")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(JdbcMetadataStore.SCHEMA_VERSION);
            }
        }
        assertThat(store.bucket("b")).map(BucketRecord::region).isEmpty();
    }
}
