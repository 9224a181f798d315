package io.coffer.gateway.cli;

import io.coffer.gateway.por.PorControl;
import io.coffer.gateway.por.PorReports;
import io.coffer.por.blob.PorRepairReport;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code coffer repair}: reads every block of U verified and restores the damaged ones from C and H. */
@Command(name = "repair", mixinStandardHelpOptions = true,
        description = {"Read every PoR block that holds pack data with its Merkle proof and checksum; ask the PoR"
                + " server to decode the damaged ones from C and H, verify them and write them back.",
            "Runs on a stopped gateway's store (same options as serve), or asks the running gateway that holds the"
                + " data directory through its admin port.",
            "Exit 0: nothing damaged or every damaged block repaired; 1: unrepairable blocks left; 2: usage error,"
                + " PoR not enabled or no answer."})
final class RepairCommand extends PorVerb {
    @Override
    String operation() {
        return "repair";
    }

    @Override
    boolean readOnly() {
        return false;
    }

    @Override
    int run(PorControl por, PrintWriter out) {
        PorRepairReport r;
        try {
            r = por.repair();
        } catch (RuntimeException e) {
            // damaged blocks may be left: the same answer as unrepairable ones
            spec.commandLine().getErr().println("coffer: the repair did not complete: " + e.getMessage());
            return FAILED;
        }
        int used = por.blocksUsed();
        out.print(json ? PorReports.json(r, used, por.capacity()) + System.lineSeparator()
                : PorReports.text(r, used, por.capacity()));
        return exitCode(PorReports.verdict(r));
    }

    @Override
    int exitCode(String verdict) {
        return switch (verdict) {
            case PorReports.REPAIRED -> OK;
            case PorReports.UNREPAIRABLE -> FAILED;
            default -> UNUSABLE;
        };
    }
}
