package io.coffer.sdk.engine;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.ETags;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.Precondition;
import io.coffer.sdk.meta.MetadataStore;
import io.coffer.sdk.meta.ObjectRecord;
import java.util.Optional;

/**
 * The conditions a write or a copy's source must meet that the engine checks itself: a write's before its body is
 * read (the metadata store checks it again at commit), a copy source's when it is read.
 */
final class Preconditions {
    private Preconditions() {
    }

    /** Refuses a doomed write before its body is read (the commit checks the precondition again). */
    static void precheck(MetadataStore meta, String bucket, String key, Precondition p) {
        if (p.ifNoneMatch() || p.ifMatch() != null) {
            Optional<ObjectRecord> current = meta.object(bucket, key);
            if (p.ifNoneMatch() && current.isPresent()) {
                throw failed();
            }
            if (p.ifMatch() != null) {
                if (current.isEmpty()) {
                    throw CofferException.noSuchKey(bucket, key);
                }
                if (!ETags.matches(p.ifMatch(), current.get().etag())) {
                    throw failed();
                }
            }
        }
    }

    /** The copy source's record {@code src} if it meets the source's x-amz-copy-source-if-* conditions. */
    static ObjectRecord checkCopySource(CopySource s, ObjectRecord src) {
        String etag = src.etag();
        boolean ok = (s.ifMatch() == null || ETags.matches(s.ifMatch(), etag))
                && (s.ifNoneMatch() == null || !ETags.matches(s.ifNoneMatch(), etag))
                && (s.ifUnmodifiedSince() == null || !src.lastModified().isAfter(s.ifUnmodifiedSince()))
                && (s.ifModifiedSince() == null || src.lastModified().isAfter(s.ifModifiedSince()));
        if (!ok) {
            throw failed();
        }
        return src;
    }

    private static CofferException failed() {
        return CofferException.of(ErrorCode.PRECONDITION_FAILED,
                "At least one of the pre-conditions you specified did not hold");
    }
}
