package io.coffer.gateway.s3.headers;

import io.coffer.gateway.auth.SigV4;
import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.NameRules;
import io.coffer.gateway.s3.S3Request;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.ETags;

/**
 * Parses {@code x-amz-copy-source} ({@code [/]bucket/key}, URL-encoded, optionally {@code ?versionId=<id>}: the
 * engine checks the id) with its {@code x-amz-copy-source-if-*}.
 */
public final class CopySourceHeader {
    private CopySourceHeader() {
    }

    public static CopySource parse(S3Request r) {
        String raw = r.header("x-amz-copy-source");
        if (raw == null) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Copy Source must mention the source bucket and key:"
                    + " sourcebucket/sourcekey");
        }
        String v = raw.trim();
        int q = v.indexOf('?');
        String versionId = null;
        if (q >= 0) {
            String qs = v.substring(q + 1);
            v = v.substring(0, q);
            if (!qs.startsWith("versionId=")) {
                throw new S3Exception(S3ErrorCode.NOT_IMPLEMENTED, "A copy source takes no query but versionId.");
            }
            versionId = qs.substring("versionId=".length());
            if (versionId.isEmpty()) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid version id specified");
            }
        }
        String decoded;
        try {
            decoded = SigV4.percentDecode(v, false);
        } catch (IllegalArgumentException e) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Invalid copy source encoding");
        }
        if (decoded.startsWith("/")) {
            decoded = decoded.substring(1);
        }
        int slash = decoded.indexOf('/');
        if (slash <= 0 || slash == decoded.length() - 1) {
            throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "Copy Source must mention the source bucket and key:"
                    + " sourcebucket/sourcekey");
        }
        String bucket = decoded.substring(0, slash);
        String key = decoded.substring(slash + 1);
        NameRules.checkKey(key);
        String ifMatch = r.header("x-amz-copy-source-if-match");
        String ifNoneMatch = r.header("x-amz-copy-source-if-none-match");
        return new CopySource(bucket, key,
                ifMatch == null ? null : ETags.unquote(ifMatch),
                ifNoneMatch == null ? null : ETags.unquote(ifNoneMatch),
                ObjectHeaders.parseHttpDate(r.header("x-amz-copy-source-if-modified-since")),
                ObjectHeaders.parseHttpDate(r.header("x-amz-copy-source-if-unmodified-since")), versionId);
    }
}
