package io.coffer.gateway.maintenance;

import io.coffer.sdk.Bucket;
import io.coffer.sdk.BucketVersioning;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.LeaseHeldException;
import io.coffer.sdk.ObjectInfo;
import io.coffer.sdk.ObjectVersion;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the lifecycle sweep does once it decided a version, marker or upload is due: always through the engine's
 * public delete and abort operations (so whatever they refuse, such as a version under Object Lock, stays), paced,
 * and each a transaction of its own, so a sweep cut short anywhere leaves every object either as it was or as the
 * rule wants it. Each method answers whether the action was taken; one the engine refused, or that found the object
 * changed since it was listed, is not.
 */
interface LifecycleActions {
    boolean expireCurrent(Bucket bucket, ObjectVersion current);

    boolean removeVersion(Bucket bucket, ObjectVersion version);

    boolean abortUpload(Bucket bucket, String key, String uploadId);

    /** Nothing done, everything answered as taken: a dry run's count of what a sweep would do now. */
    LifecycleActions DRY_RUN = new LifecycleActions() {
        @Override
        public boolean expireCurrent(Bucket bucket, ObjectVersion current) {
            return true;
        }

        @Override
        public boolean removeVersion(Bucket bucket, ObjectVersion version) {
            return true;
        }

        @Override
        public boolean abortUpload(Bucket bucket, String key, String uploadId) {
            return true;
        }
    };

    /** The sweep's actions on {@code coffer}, each after {@code pacer}'s turn. */
    static LifecycleActions engine(Coffer coffer, DeletionPacer pacer) {
        return new EngineActions(coffer, pacer);
    }

    /** The engine's delete and abort, with the checks that keep a version written since the listing. */
    final class EngineActions implements LifecycleActions {
        private static final Logger LOG = LoggerFactory.getLogger(EngineActions.class);
        /** The engine's answers when the object, version or upload changed or went since it was listed. */
        private static final Set<ErrorCode> CHANGED = Set.of(ErrorCode.NO_SUCH_KEY, ErrorCode.NO_SUCH_VERSION,
                ErrorCode.NO_SUCH_UPLOAD, ErrorCode.PRECONDITION_FAILED, ErrorCode.METHOD_NOT_ALLOWED);

        private final Coffer coffer;
        private final DeletionPacer pacer;

        EngineActions(Coffer coffer, DeletionPacer pacer) {
            this.coffer = coffer;
            this.pacer = pacer;
        }

        /**
         * Removes (unversioned bucket) or hides behind a delete marker (versioned or suspended) the key's current
         * version, only while it is still the version listed: same version id and Last-Modified read just before,
         * and the same ETag checked in the delete's own transaction (If-Match).
         */
        @Override
        public boolean expireCurrent(Bucket bucket, ObjectVersion current) {
            return attempt(bucket, () -> {
                ObjectInfo now = coffer.headObject(bucket.name(), current.key());
                if (!clientId(now.versionId()).equals(clientId(current.versionId()))
                        || !now.lastModified().equals(current.lastModified())) {
                    return false;
                }
                pacer.acquire();
                coffer.deleteObjectVersion(bucket, current.key(), null, current.etag());
                return true;
            });
        }

        /** Removes one version (or delete marker) for good, by its id: a version's content never changes. */
        @Override
        public boolean removeVersion(Bucket bucket, ObjectVersion version) {
            return attempt(bucket, () -> {
                pacer.acquire();
                coffer.deleteObjectVersion(bucket, version.key(), clientId(version.versionId()), null);
                return true;
            });
        }

        @Override
        public boolean abortUpload(Bucket bucket, String key, String uploadId) {
            return attempt(bucket, () -> {
                pacer.acquire();
                coffer.abortMultipartUpload(bucket, key, uploadId);
                return true;
            });
        }

        private boolean attempt(Bucket bucket, Action action) {
            try {
                return action.run();
            } catch (LeaseHeldException e) {
                throw e;
            } catch (CofferException e) {
                if (!CHANGED.contains(e.code())) {
                    LOG.warn("lifecycle: left an object of bucket {} as it is: {} ({})", bucket.name(), e.code(),
                            e.getMessage());
                }
                return false;
            }
        }

        /** The id a client names a version by: the null version is {@code null} in some answers, "null" in others. */
        private static String clientId(String versionId) {
            return versionId == null ? BucketVersioning.NULL_VERSION : versionId;
        }

        private interface Action {
            boolean run();
        }
    }
}
