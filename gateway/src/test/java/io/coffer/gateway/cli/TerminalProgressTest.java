package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.ProgressListener;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import org.junit.jupiter.api.Test;

/** The progress bar the maintenance verbs draw: a bar per stage, and none off a terminal or with --json. */
class TerminalProgressTest {
    @Test
    void eachStageGetsABarThatEndsAtItsCount() {
        List<String> lines = new CopyOnWriteArrayList<>();
        try (TerminalProgress p = new TerminalProgress("fsck", () -> new DelegatingProgressBarConsumer(lines::add,
                120))) {
            p.stage("objects", 4);
            p.advance(3);
            p.advance(1);
            p.stage("packs", -1);
            p.advance(7);
        }
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("fsck: objects").contains("4/4"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("fsck: packs").contains("7"));
    }

    @Test
    void nothingIsDrawnOffATerminalOrForJson() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stream = new PrintStream(err, true);
        assertThat(TerminalProgress.forTerminal("gc", false, false, stream)).isSameAs(ProgressListener.NONE);
        assertThat(TerminalProgress.forTerminal("gc", true, true, stream)).isSameAs(ProgressListener.NONE);
        ProgressListener drawn = TerminalProgress.forTerminal("gc", false, true, stream);
        assertThat(drawn).isInstanceOf(TerminalProgress.class);
        drawn.stage("packs", 2);
        drawn.advance(2);
        TerminalProgress.finish(drawn);
        assertThat(err.toString()).contains("gc: packs").contains("2/2");
    }
}
