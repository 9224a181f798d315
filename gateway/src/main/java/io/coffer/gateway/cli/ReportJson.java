package io.coffer.gateway.cli;

import io.coffer.gateway.http.AccessLog;
import io.coffer.sdk.FsckReport;
import io.coffer.sdk.GcReport;
import io.coffer.sdk.ReindexReport;
import java.util.List;

/**
 * The {@code --json} output of fsck, gc and reindex: one JSON object on one line, field names as documented in
 * docs/OPERATIONS.md ("Machine-readable reports"). Written by hand as {@code stats --json} is: flat objects of numbers,
 * booleans and string lists.
 */
final class ReportJson {
    private ReportJson() {
    }

    static String fsck(FsckReport r, boolean readData) {
        return "{\"clean\":" + r.clean() + ",\"readData\":" + readData + ",\"objectsChecked\":" + r.objectsChecked()
                + ",\"chunksChecked\":" + r.chunksChecked() + ",\"bytesRead\":" + r.bytesRead() + ",\"damaged\":"
                + list(r.damaged()) + ",\"orphans\":" + list(r.orphans()) + "}";
    }

    static String gc(GcReport r, boolean dryRun) {
        return "{\"dryRun\":" + dryRun + ",\"packsRewritten\":" + r.packsRewritten() + ",\"packsRetired\":"
                + r.packsRetired() + ",\"blobsDeleted\":" + r.blobsDeleted() + ",\"bytesCopied\":" + r.bytesCopied()
                + ",\"bytesFreed\":" + r.bytesFreed() + "}";
    }

    static String reindex(ReindexReport r, boolean dryRun) {
        return "{\"dryRun\":" + dryRun + ",\"clean\":" + r.clean() + ",\"buckets\":" + r.buckets() + ",\"objects\":"
                + r.objects() + ",\"packs\":" + r.packs() + ",\"chunks\":" + r.chunks() + ",\"damaged\":"
                + list(r.damaged()) + "}";
    }

    private static String list(List<String> items) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < items.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(AccessLog.json(items.get(i)));
        }
        return sb.append(']').toString();
    }
}
