package io.coffer.gateway.por;

import io.coffer.gateway.http.AccessLog;
import io.coffer.por.blob.PorAuditReport;
import io.coffer.por.blob.PorConsolidationReport;
import io.coffer.por.blob.PorRepairReport;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Audit and repair reports as the admin endpoints and {@code coffer audit} / {@code coffer repair} print them: one
 * JSON object (the style of {@code coffer stats --json}; the gateway has no JSON library at runtime) or text lines
 * saying what was checked, then the verdict on the last line.
 */
public final class PorReports {
    /** Verdicts, as the last text line, the JSON {@code verdict} and the admin response's verdict header. */
    public static final String PASSED = "passed";
    public static final String FAILED = "failed";
    public static final String REPAIRED = "repaired";
    public static final String UNREPAIRABLE = "unrepairable";
    public static final String SHRUNK = "shrunk";
    public static final String UNCHANGED = "unchanged";

    private PorReports() {
    }

    public static String verdict(PorAuditReport a) {
        return a.passed() ? PASSED : FAILED;
    }

    public static String verdict(PorRepairReport r) {
        return r.unrepairable().isEmpty() ? REPAIRED : UNREPAIRABLE;
    }

    public static String verdict(PorConsolidationReport r) {
        return r.shrank() ? SHRUNK : UNCHANGED;
    }

    public static String json(PorConsolidationReport r) {
        return "{\"operation\":\"consolidate\",\"verdict\":\"" + verdict(r) + "\",\"capacityBefore\":"
                + r.capacityBefore() + ",\"capacity\":" + r.capacityAfter() + ",\"blocksUsed\":" + r.blocksUsed()
                + ",\"packsMoved\":" + r.packsMoved() + ",\"blocksMoved\":" + r.blocksMoved() + ",\"tookMillis\":"
                + r.took().toMillis() + "}";
    }

    public static String text(PorConsolidationReport r) {
        return String.format(Locale.ROOT, "PoR consolidation: capacity %d -> %d blocks, %d in use, %d packs (%d blocks)"
                + " moved, %d ms%n%s%n", r.capacityBefore(), r.capacityAfter(), r.blocksUsed(), r.packsMoved(),
                r.blocksMoved(), r.took().toMillis(), verdict(r));
    }

    public static String json(PorAuditReport a, int blocksUsed, int capacity) {
        return "{\"operation\":\"audit\",\"verdict\":\"" + verdict(a) + "\",\"passed\":" + a.passed()
                + ",\"levelsChecked\":" + a.levelsChecked() + ",\"vectorsSampled\":" + a.vectorsSampled()
                + ",\"uBlocksSampled\":" + a.uBlocksSampled() + ",\"uBlocksBad\":" + a.uBlocksBad()
                + ",\"bytesDown\":" + a.bytesDown() + ",\"bytesUp\":" + a.bytesUp() + ",\"tookMillis\":"
                + a.took().toMillis() + ",\"detail\":" + AccessLog.json(a.detail()) + ",\"blocksUsed\":" + blocksUsed
                + ",\"capacity\":" + capacity + "}";
    }

    public static String json(PorRepairReport r, int blocksUsed, int capacity) {
        return "{\"operation\":\"repair\",\"verdict\":\"" + verdict(r) + "\",\"blocksChecked\":" + r.blocksChecked()
                + ",\"blocksDamaged\":" + r.blocksDamaged() + ",\"blocksRepaired\":" + r.blocksRepaired()
                + ",\"unrepairable\":[" + r.unrepairable().stream().map(String::valueOf)
                .collect(Collectors.joining(",")) + "],\"tookMillis\":" + r.took().toMillis() + ",\"blocksUsed\":"
                + blocksUsed + ",\"capacity\":" + capacity + "}";
    }

    public static String text(PorAuditReport a, int blocksUsed, int capacity) {
        return String.format(Locale.ROOT, "PoR audit: %d levels checked, %d code vectors sampled, %d blocks of U read"
                        + " back (%d bad), %d bytes down, %d bytes up, %d ms%nblocks used: %d of %d%n%s%s%n",
                a.levelsChecked(), a.vectorsSampled(), a.uBlocksSampled(), a.uBlocksBad(), a.bytesDown(), a.bytesUp(), a.took().toMillis(), blocksUsed, capacity,
                a.detail() == null || a.detail().isBlank() ? "" : "detail: " + a.detail() + System.lineSeparator(),
                a.passed() ? PASSED : "FAILED");
    }

    public static String text(PorRepairReport r, int blocksUsed, int capacity) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "PoR repair: %d blocks checked, %d damaged,"
                        + " %d repaired, %d unrepairable, %d ms%nblocks used: %d of %d%n", r.blocksChecked(),
                r.blocksDamaged(), r.blocksRepaired(), r.unrepairable().size(), r.took().toMillis(), blocksUsed,
                capacity));
        r.unrepairable().forEach(i -> sb.append("UNREPAIRABLE block ").append(i).append(System.lineSeparator()));
        return sb.append(r.unrepairable().isEmpty() ? REPAIRED : "UNREPAIRABLE BLOCKS LEFT").append(System.lineSeparator())
                .toString();
    }
}
