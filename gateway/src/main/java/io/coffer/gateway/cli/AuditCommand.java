package io.coffer.gateway.cli;

import io.coffer.gateway.por.PorControl;
import io.coffer.gateway.por.PorReports;
import io.coffer.por.blob.PorAuditReport;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code coffer audit}: one proof-of-retrievability audit now; exit 1 when it fails. */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = {"Run one proof-of-retrievability audit: challenge the PoR server for C and every filled level"
                + " of H and check its aggregated answer against the client's checksums, and read 128 random blocks"
                + " of U back through their proofs.",
            "Runs on a stopped gateway's store (same options as serve), or asks the running gateway that holds the"
                + " data directory through its admin port.",
            "Exit 0: passed; 1: failed; 2: usage error, PoR not enabled or no answer."})
final class AuditCommand extends PorVerb {
    @Override
    String operation() {
        return "audit";
    }

    @Override
    boolean readOnly() {
        return true;
    }

    @Override
    int run(PorControl por, PrintWriter out) {
        PorAuditReport a = por.audit();
        int used = por.blocksUsed();
        out.print(json ? PorReports.json(a, used, por.capacity()) + System.lineSeparator()
                : PorReports.text(a, used, por.capacity()));
        return exitCode(PorReports.verdict(a));
    }

    @Override
    int exitCode(String verdict) {
        return switch (verdict) {
            case PorReports.PASSED -> OK;
            case PorReports.FAILED -> FAILED;
            default -> UNUSABLE;
        };
    }
}
