package io.coffer.gateway.maintenance;

import io.coffer.sdk.GcReport;

/** A garbage-collection report as the admin endpoint answers it: one JSON object of numbers. */
public final class GcReports {
    private GcReports() {
    }

    public static String json(GcReport r) {
        return "{\"packsRewritten\":" + r.packsRewritten() + ",\"packsRetired\":" + r.packsRetired()
                + ",\"blobsDeleted\":" + r.blobsDeleted() + ",\"bytesCopied\":" + r.bytesCopied()
                + ",\"bytesFreed\":" + r.bytesFreed() + "}";
    }
}
