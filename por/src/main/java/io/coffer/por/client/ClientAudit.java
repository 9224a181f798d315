package io.coffer.por.client;

import io.coffer.por.audit.AuditPlanner;
import io.coffer.por.audit.AuditResponse;
import io.coffer.por.audit.AuditVerdict;
import io.coffer.por.audit.AuditVerifier;
import io.coffer.por.audit.AuditedRegion;
import io.coffer.por.checksum.ChecksumKey;
import io.coffer.por.checksum.ChecksumSealer;
import io.coffer.por.code.DeamortizedSchedule;
import io.coffer.por.code.LogRun;
import io.coffer.por.code.LogState;
import io.coffer.por.code.PacedCRebuild;
import io.coffer.por.server.PorServer;
import java.util.ArrayList;
import java.util.List;

/**
 * One audit of {@link PorClient} (section 5.5): lambda random code blocks of C, and lambda of each current run of H
 * (the runs that hold every write of the epoch, {@link DeamortizedSchedule#runs}), each set checked through its
 * aggregate (C's vectors are blocks, H's are batches, under different checksum matrices). In a paced C rebuild's
 * window before its switch point (docs/POR.md, "C's rebuild paced") C is the old one, sealed at the ended epoch's
 * start, and the ended epoch's frozen runs are audited too ({@link PorServer#auditFrozen}), each under its time.
 */
final class ClientAudit {
    private final PorServer server;
    private final AuditPlanner planner;
    private final ChecksumSealer sealer;
    private final Traffic traffic;
    private final ChecksumKey blockKey;
    private final ChecksumKey batchKey;

    ClientAudit(PorServer server, AuditPlanner planner, ChecksumSealer sealer, Traffic traffic, ChecksumKey blockKey,
            ChecksumKey batchKey) {
        this.server = server;
        this.planner = planner;
        this.sealer = sealer;
        this.traffic = traffic;
        this.blockKey = blockKey;
        this.batchKey = batchKey;
    }

    AuditVerdict audit(ClientState state) {
        LogState log = state.hLog();
        int k = state.k();
        int hK = log.k();
        boolean beforeSwitch = beforeSwitch(state);
        // in a paced rebuild's window, until its switch point: the old C, built at the ended epoch's start
        long cEpoch = beforeSwitch ? log.epoch() - 1 : log.epoch();
        AuditVerdict verdict = audit(List.of(AuditedRegion.c(2L << k, SealClock.cTime(cEpoch, k))), blockKey, false);
        if (beforeSwitch && verdict.passed()) {
            verdict = and(verdict, audit(runs(hK, log.epoch() - 1, 1 << hK), batchKey, true));
        }
        List<AuditedRegion> current = runs(hK, log.epoch(), log.t());
        return current.isEmpty() || !verdict.passed() ? verdict : and(verdict, audit(current, batchKey, false));
    }

    /**
     * Whether the epoch is in a paced C rebuild's window before its switch point: the old C and the ended epoch's
     * frozen H stand for U's snapshot. A pure function of the state (the window's flag, t and b), as the server's.
     */
    static boolean beforeSwitch(ClientState state) {
        return state.window() && state.hLog().t() < PacedCRebuild.addsToSwitch(state.k(), state.batchExponent());
    }

    /** The runs of H after {@code adds} adds of {@code epoch}, as audited regions under that epoch's time. */
    private static List<AuditedRegion> runs(int hK, long epoch, int adds) {
        List<AuditedRegion> levels = new ArrayList<>();
        long epochTime = SealClock.hEpochTime(epoch, hK);
        for (LogRun run : DeamortizedSchedule.runs(hK, adds)) {
            levels.add(AuditedRegion.run(run.level(), run.start() >> run.level(), epochTime));
        }
        return levels;
    }

    private static AuditVerdict and(AuditVerdict first, AuditVerdict second) {
        int sampled = first.blocksSampled() + second.blocksSampled();
        return second.passed() ? AuditVerdict.pass(sampled) : AuditVerdict.fail(sampled, second.reason());
    }

    private AuditVerdict audit(List<AuditedRegion> regions, ChecksumKey key, boolean frozen) {
        AuditPlanner.Plan plan = planner.plan(regions);
        traffic.up(plan.challenge().wireBytes());
        AuditResponse response;
        try {
            response = frozen ? server.auditFrozen(plan.challenge()) : server.audit(plan.challenge());
        } catch (RuntimeException e) {
            return AuditVerdict.fail(plan.challenge().size(), "the server could not answer: " + e.getMessage());
        }
        traffic.down(response.wireBytes());
        return new AuditVerifier(key, sealer).verify(plan, response);
    }
}
