package io.coffer.por.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The pool that verifies a read's later blocks: its threads, its bound, and tasks it does not take. */
class CheckPoolTest {

    @Test
    void offeredTasksRunOnThePoolsDaemonThreads() throws Exception {
        try (CheckPool pool = new CheckPool(2)) {
            FutureTask<Thread> task = new FutureTask<>(Thread::currentThread);
            pool.offer(task);
            Thread ran = task.get(10, TimeUnit.SECONDS);
            assertThat(ran.getName()).startsWith("por-check-");
            assertThat(ran.isDaemon()).isTrue();
            assertThat(ran).isNotSameAs(Thread.currentThread());
        }
    }

    @Test
    void aFullQueueDropsTheTaskWithoutBlockingSoItsReaderRunsIt() throws Exception {
        try (CheckPool pool = new CheckPool(1)) {
            CountDownLatch release = new CountDownLatch(1);
            FutureTask<Boolean> busy = new FutureTask<>(() -> release.await(10, TimeUnit.SECONDS));
            pool.offer(busy);
            List<FutureTask<Integer>> queued = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                int value = i;
                FutureTask<Integer> task = new FutureTask<>(() -> value);
                queued.add(task);
                pool.offer(task);
            }
            FutureTask<String> dropped = new FutureTask<>(() -> Thread.currentThread().getName());
            pool.offer(dropped); // returns at once: the one thread is busy and the queue is full
            release.countDown();
            assertThat(busy.get(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < queued.size(); i++) {
                assertThat(queued.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(i);
            }
            assertThat(dropped.isDone()).isFalse();
            dropped.run();
            assertThat(dropped.get()).isEqualTo(Thread.currentThread().getName());
        }
    }

    @Test
    void aClosedPoolTakesNothingAndDoesNotThrow() throws Exception {
        CheckPool pool = new CheckPool(1);
        pool.close();
        FutureTask<Integer> task = new FutureTask<>(() -> 7);
        pool.offer(task);
        assertThat(task.isDone()).isFalse();
        task.run();
        assertThat(task.get()).isEqualTo(7);
    }

    @Test
    void aPoolNeedsAThread() {
        assertThatThrownBy(() -> new CheckPool(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
