package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.meta.jdbc.JdbcMetadataStore;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writing marker: left for a waiting writer, removed once none waits, kept after a write that did not commit. */
class StateKeeperTest {
    @TempDir
    Path dir;

    @Test
    void aMarkerLeftForAWaitingWriterIsRemovedOnlyOnceNoWriterWaits() throws IOException {
        try (JdbcMetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("meta.db"))) {
            StateKeeper keeper = new StateKeeper(meta.blockMap(), dir.resolve("client.state"));
            keeper.markWriting();
            assertThat(keeper.interrupted()).isTrue();

            keeper.clearWriting(true); // a writer waits: it finds the marker present
            assertThat(keeper.interrupted()).isTrue();
            keeper.settle(true); // that writer left without writing, another still waits
            assertThat(keeper.interrupted()).isTrue();
            keeper.settle(false);
            assertThat(keeper.interrupted()).isFalse();

            keeper.markWriting();
            keeper.clearWriting(false);
            assertThat(keeper.interrupted()).isFalse();
        }
    }

    @Test
    void aMarkerOfWritesThatDidNotCommitIsNotRemovedBySettling() throws IOException {
        try (JdbcMetadataStore meta = JdbcMetadataStore.sqlite(dir.resolve("meta.db"))) {
            StateKeeper keeper = new StateKeeper(meta.blockMap(), dir.resolve("client.state"));
            keeper.markWriting();
            keeper.clearWriting(true);
            keeper.markWriting(); // the waiting writer starts its block writes and fails before its commit
            keeper.settle(false);
            assertThat(keeper.interrupted()).isTrue(); // the next open resynchronises
        }
    }
}
