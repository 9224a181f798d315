package io.coffer.sdk.meta.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.testing.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

/** The metadata store contract on the PostgreSQL dialect, against a real server, one fresh database per test. */
class PostgresMetadataStoreTest extends MetadataStoreContractTest {
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private String url;

    @Override
    JdbcMetadataStore openStore() {
        PostgresServer server = PostgresServer.get();
        url = server.createDatabase("meta_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet());
        return JdbcMetadataStore.postgres(url, server.user(), server.password());
    }

    @Override
    JdbcMetadataStore reopenStore() {
        PostgresServer server = PostgresServer.get();
        return JdbcMetadataStore.postgres(url, server.user(), server.password());
    }

    @Override
    Connection rawConnection() throws SQLException {
        PostgresServer server = PostgresServer.get();
        return DriverManager.getConnection(url, server.user(), server.password());
    }

    @Override
    void awaitBlockedWriter() throws SQLException, InterruptedException {
        try (Connection c = rawConnection();
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_stat_activity "
                     + "WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
            for (int i = 0; i < 300; i++) {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(20);
            }
        }
        throw new AssertionError("no store transaction waited for the racing insert");
    }

    @Override
    void assertIndexRangeScan(String plan) {
        assertThat(plan).containsPattern("Index (Only )?Scan using objects_pkey on objects")
                .contains("key_utf8 >").contains("key_utf8 <").doesNotContain("Seq Scan");
    }
}
