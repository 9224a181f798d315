package io.coffer.gateway;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Fails a test class after which Netty finds a leaked buffer (one garbage-collected without its last release).
 *
 * <p>Registered twice in META-INF/services: as a launcher session listener it turns leak detection to PARANOID (every
 * buffer tracked, each access recorded) and installs a detector that keeps each report, before any test touches a
 * buffer; as an auto-detected Jupiter extension its {@code afterAll} runs after the class's own teardown, collects
 * garbage, and fails if a leak was reported. Netty reports a leak when it next tracks a buffer after the collector
 * found the leaked one, so a leak surfaces in the class that leaked it or, at worst, in the next one.
 */
public final class NettyLeakGuard implements LauncherSessionListener, AfterAllCallback {
    private static final Queue<String> LEAKS = new ConcurrentLinkedQueue<>();
    private static boolean installed;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        install();
    }

    private static synchronized void install() {
        if (!installed) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
            ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
            installed = true;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        List<String> leaks = collectLeaks();
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " Netty buffer leak(s) reported during or before "
                    + context.getDisplayName() + ":\n" + String.join("\n\n", leaks));
        }
    }

    /** Collects garbage, lets Netty report what it found unreleased, and returns (and forgets) every report so far. */
    static List<String> collectLeaks() throws InterruptedException {
        install();
        for (int round = 0; round < 3; round++) {
            System.gc();
            Thread.sleep(20);
            // Tracking a new buffer is what makes Netty drain its queue of collected, unreleased ones.
            release(PooledByteBufAllocator.DEFAULT.directBuffer(1));
            release(PooledByteBufAllocator.DEFAULT.heapBuffer(1));
            release(UnpooledByteBufAllocator.DEFAULT.directBuffer(1));
        }
        List<String> leaks = new ArrayList<>();
        for (String leak; (leak = LEAKS.poll()) != null; ) {
            leaks.add(leak);
        }
        return leaks;
    }

    private static void release(ByteBuf buf) {
        buf.release();
    }

    private static final class RecordingFactory extends ResourceLeakDetectorFactory {
        @Override
        @SuppressWarnings("deprecation")
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                long maxActive) {
            return new RecordingDetector<>(resource, samplingInterval);
        }
    }

    private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
        RecordingDetector(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval);
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            LEAKS.add("LEAK: " + resourceType + records);
            super.reportTracedLeak(resourceType, records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            LEAKS.add("LEAK: " + resourceType + " (no access records)");
            super.reportUntracedLeak(resourceType);
        }
    }
}
