package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;

/** The partNumber and uploadId query parameters of the multipart actions. */
final class PartNumbers {
    private PartNumbers() {
    }

    static int partNumber(S3Request r) {
        String v = r.queryParam("partNumber");
        try {
            int n = Integer.parseInt(v == null ? "" : v.trim());
            if (n >= 1 && n <= 10000) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Part number must be an integer between 1 and 10000,"
                + " inclusive");
    }

    static String uploadId(S3Request r) {
        String id = r.queryParam("uploadId");
        if (id == null || id.isEmpty()) {
            throw new S3Exception(S3ErrorCode.NO_SUCH_UPLOAD);
        }
        return id;
    }
}
