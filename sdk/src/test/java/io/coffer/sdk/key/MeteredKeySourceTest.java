package io.coffer.sdk.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.crypto.ChunkKey;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The meters a key source's calls leave: round trips by outcome, batch sizes and the up gauge. */
class MeteredKeySourceTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    /** Fails while {@code failing} is set, else gives random keys. */
    private static final class Flaky implements KeySource {
        volatile boolean failing;

        @Override
        public List<ChunkKey> keysFor(List<byte[]> chunkHashes) throws KeySourceException {
            if (failing) {
                throw new KeySourceException("key server unreachable");
            }
            return RandomKeySource.INSTANCE.keysFor(chunkHashes);
        }

        @Override
        public boolean messageLocked() {
            return true;
        }

        @Override
        public String name() {
            return "flaky";
        }
    }

    private double up() {
        return registry.get("coffer.keysource.up").tag("source", "flaky").gauge().value();
    }

    private long calls(String outcome) {
        return registry.get("coffer.keysource.request.duration").tag("outcome", outcome).timer().count();
    }

    @Test
    void upFollowsTheLastCallAndEveryCallIsTimedAndSized() throws Exception {
        Flaky flaky = new Flaky();
        KeySource metered = new MeteredKeySource(flaky, registry);
        assertThat(up()).isEqualTo(1.0);
        assertThat(metered.keysFor(List.of(new byte[32], new byte[32], new byte[32]))).hasSize(3);
        flaky.failing = true;
        assertThatThrownBy(() -> metered.keysFor(List.of(new byte[32]))).isInstanceOf(KeySourceException.class);
        assertThat(up()).isEqualTo(0.0);
        flaky.failing = false;
        metered.keysFor(List.of(new byte[32], new byte[32]));
        assertThat(up()).isEqualTo(1.0);

        assertThat(calls("success")).isEqualTo(2);
        assertThat(calls("error")).isEqualTo(1);
        var batch = registry.get("coffer.keysource.batch.size").summary();
        assertThat(batch.count()).isEqualTo(3);
        assertThat(batch.totalAmount()).isEqualTo(6.0);
        assertThat(batch.max()).isEqualTo(3.0);
        assertThat(metered.name()).isEqualTo("flaky");
        assertThat(metered.messageLocked()).isTrue();
    }
}
