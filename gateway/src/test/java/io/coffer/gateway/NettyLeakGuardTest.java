package io.coffer.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NettyLeakGuardTest {
    @Test
    void aBufferCollectedWithoutItsReleaseIsReported() throws InterruptedException {
        leakOneBuffer();
        List<String> leaks = new ArrayList<>();
        for (int attempt = 0; attempt < 10 && leaks.isEmpty(); attempt++) {
            leaks.addAll(NettyLeakGuard.collectLeaks());
        }
        assertThat(leaks).anySatisfy(leak -> assertThat(leak).startsWith("LEAK: ").contains("leakOneBuffer"));
    }

    private static void leakOneBuffer() {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(16);
        buf.writeInt(1); // recorded access, so the report names this method
    }
}
