package io.coffer.gateway.cli;

import io.coffer.gateway.por.PorControl;
import io.coffer.gateway.por.PorReports;
import io.coffer.por.blob.PorConsolidationReport;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code coffer por-consolidate}: shrinks the PoR store when most of its capacity is free (appendix A.3). */
@Command(name = "por-consolidate", mixinStandardHelpOptions = true,
        description = {"When at most a quarter of the PoR store's capacity holds pack data, move the packs above the"
                + " smallest capacity that holds them twice over (never below --por-k) to free blocks below it and"
                + " shrink the store (U, C and H). The gateway also does this after each gc pass.",
            "Runs on a stopped gateway's store (same options as serve), or asks the running gateway that holds the"
                + " data directory through its admin port.",
            "Exit 0: shrunk or nothing due; 1: the consolidation failed; 2: usage error, PoR not enabled or no"
                + " answer."})
final class ConsolidateCommand extends PorVerb {
    @Override
    String operation() {
        return "consolidate";
    }

    @Override
    boolean readOnly() {
        return false;
    }

    @Override
    int run(PorControl por, PrintWriter out) {
        PorConsolidationReport r;
        try {
            r = por.consolidate();
        } catch (RuntimeException e) {
            spec.commandLine().getErr().println("coffer: the consolidation did not complete: " + e.getMessage());
            return FAILED;
        }
        out.print(json ? PorReports.json(r) + System.lineSeparator() : PorReports.text(r));
        return OK;
    }

    @Override
    int exitCode(String verdict) {
        return switch (verdict) {
            case PorReports.SHRUNK, PorReports.UNCHANGED -> OK;
            default -> UNUSABLE;
        };
    }
}
