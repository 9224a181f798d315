package io.coffer.gateway.cli;

import io.coffer.sdk.ProgressListener;
import java.io.PrintStream;
import java.util.function.Supplier;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A maintenance run's progress drawn with me.tongfei:progressbar, one bar per stage ("fsck: objects 1200/5000"); a
 * stage of unknown size shows its count and rate without a bar. Drawn on standard error, so that standard output keeps
 * only the report; the verbs use it only on a terminal and never with {@code --json} ({@link #forTerminal}).
 */
final class TerminalProgress implements ProgressListener, AutoCloseable {
    private final String task;
    private final Supplier<ProgressBarConsumer> consumers;
    private ProgressBar bar;

    TerminalProgress(String task, Supplier<ProgressBarConsumer> consumers) {
        this.task = task;
        this.consumers = consumers;
    }

    /** A bar on {@code err} where the command runs on a terminal and prints text; else a listener that draws nothing. */
    static ProgressListener forTerminal(String task, boolean json, boolean terminal, PrintStream err) {
        if (json || !terminal) {
            return ProgressListener.NONE;
        }
        return new TerminalProgress(task, () -> new ConsoleProgressBarConsumer(err));
    }

    /** Closes {@code progress} where it is a bar: its last state stays on the screen. */
    static void finish(ProgressListener progress) {
        if (progress instanceof TerminalProgress t) {
            t.close();
        }
    }

    @Override
    public void stage(String name, long total) {
        close();
        bar = new ProgressBarBuilder().setTaskName(task + ": " + name).setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(200).setConsumer(consumers.get())
                .showSpeed().build();
    }

    @Override
    public void advance(long steps) {
        if (bar != null) {
            bar.stepBy(steps);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
