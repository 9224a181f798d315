package io.coffer.por.code;

import java.util.List;

/**
 * H, the log that writes enter: {@link HierarchicalLog} (HAdd, amortised rebuilds) or {@link DeamortizedLog} (bounded
 * work per write). Both keep codes of equation (1) and are described by a {@link LogState}.
 */
public interface WriteLog {
    CodeParameters parameters();

    LogState state();

    /** Adds the next write's vector; returns whether the epoch is full (C must be rebuilt before the next add). */
    boolean add(int[] vector);

    /** The complete runs that hold every write of the epoch, each write in one, oldest first. */
    List<LogRun> runs();

    /** Empties H and starts the next epoch (C is rebuilt elsewhere). */
    void newEpoch();

    /**
     * How many of the latest adds (now, at {@link #state()}) the vectors of levels 0..levels-1 depend on, counting the
     * runs a pending merge has still to read (0 for no levels): replaying only that many latest adds, over those
     * levels in any state, rebuilds every vector of them that is part of the code or will be read again. A durable
     * server keeps that many adds' records to rebuild the levels it holds in memory only ({@code JournaledPorServer}).
     */
    int addsHeldBelow(int levels);
}
