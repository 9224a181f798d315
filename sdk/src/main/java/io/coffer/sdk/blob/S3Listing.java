package io.coffer.sdk.blob;

import java.io.UncheckedIOException;
import java.util.Iterator;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An {@link S3BlobStore}'s listing: ListObjectsV2 pages fetched as the iterator advances, each object a blob info
 * named without the key prefix, SDK failures turned into I/O ones.
 */
final class S3Listing implements BlobListing {
    private final S3Client s3;
    private final ListObjectsV2Request request;
    private final String prefix;
    private final String keyPrefix;
    private final S3Failures failures;

    /** {@code prefix} is the blob name prefix asked for, {@code request} lists it under {@code keyPrefix}. */
    S3Listing(S3Client s3, ListObjectsV2Request request, String prefix, String keyPrefix, S3Failures failures) {
        this.s3 = s3;
        this.request = request;
        this.prefix = prefix;
        this.keyPrefix = keyPrefix;
        this.failures = failures;
    }

    @Override
    public Iterator<BlobInfo> iterator() {
        try {
            return new ObjectIterator(s3.listObjectsV2Paginator(request).contents().iterator());
        } catch (SdkException e) {
            throw new UncheckedIOException(failures.failure("list " + prefix, e));
        }
    }

    /** Maps listed objects to blob infos, stripping the key prefix and turning SDK failures into I/O ones. */
    private final class ObjectIterator implements Iterator<BlobInfo> {
        private final Iterator<S3Object> objects;

        ObjectIterator(Iterator<S3Object> objects) {
            this.objects = objects;
        }

        @Override
        public boolean hasNext() {
            try {
                return objects.hasNext();
            } catch (SdkException e) {
                throw new UncheckedIOException(failures.failure("list " + prefix, e));
            }
        }

        @Override
        public BlobInfo next() {
            S3Object object;
            try {
                object = objects.next();
            } catch (SdkException e) {
                throw new UncheckedIOException(failures.failure("list " + prefix, e));
            }
            return new BlobInfo(object.key().substring(keyPrefix.length()), object.size(), object.lastModified());
        }
    }
}
