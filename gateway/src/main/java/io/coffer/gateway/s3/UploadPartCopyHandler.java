package io.coffer.gateway.s3;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import io.coffer.gateway.s3.headers.CopySourceHeader;
import io.coffer.gateway.s3.headers.ObjectHeaders;
import io.coffer.gateway.s3.headers.RangeHeader;
import io.coffer.gateway.s3.sse.CustomerKeyCopy;
import io.coffer.gateway.s3.sse.ServerSideEncryption;
import io.coffer.gateway.xml.XmlResponseWriter;
import io.coffer.sdk.ByteRange;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.CopySource;
import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.ObjectKeyResolver;
import io.coffer.sdk.PartInfo;

/**
 * UploadPartCopy: a part made from (a range of) an existing object, {@code x-amz-copy-source-range: bytes=a-b}; with
 * SSE-C headers (the source's key, the upload's key), or a source or upload under a keyring key (SSE-KMS, no headers
 * needed), read and written anew ({@link CustomerKeyCopy}).
 */
public final class UploadPartCopyHandler implements S3ActionHandler {
    private final Coffer coffer;
    private final CopyObjectHandler.SourceAccess sourceAccess;
    private final ServerSideEncryption encryption;
    private final CustomerKeyCopy customerKeyCopy;

    public UploadPartCopyHandler(Coffer coffer, CopyObjectHandler.SourceAccess sourceAccess,
                                 ServerSideEncryption encryption) {
        this.coffer = coffer;
        this.sourceAccess = sourceAccess;
        this.encryption = encryption;
        this.customerKeyCopy = new CustomerKeyCopy(coffer);
    }

    @Override
    public S3Response handle(S3Request r) {
        int partNumber = PartNumbers.partNumber(r);
        String uploadId = PartNumbers.uploadId(r);
        CopySource source = CopySourceHeader.parse(r);
        sourceAccess.check(source.bucket(), r);
        ByteRange range = null;
        String rangeHeader = r.header("x-amz-copy-source-range");
        if (rangeHeader != null) {
            range = RangeHeader.parse(rangeHeader);
            if (range == null || range.first() < 0 || range.last() < 0) {
                throw new S3Exception(S3ErrorCode.INVALID_ARGUMENT, "The x-amz-copy-source-range value must be of the"
                        + " form bytes=first-last where first and last are the zero-based offsets of the first and"
                        + " last bytes to copy");
            }
            checkWithinSource(range, coffer.headObject(source.bucket(), source.key(), source.versionId()).size());
        }
        ObjectKeyResolver sourceKeys = encryption.forCopySource(r);
        ServerSideEncryption.Seen partKeys = encryption.seen(encryption.forRead(r));
        boolean customerKeys = encryption.customerKeys().copySource(r) != null
                || encryption.customerKeys().requested(r) != null;
        // with a key on either side the bytes are read and written under the upload's key, else chunks are shared
        PartInfo part;
        if (customerKeys) {
            part = customerKeyCopy.copyPart(source, range, sourceKeys, r.bucketRecord(), r.key(), uploadId,
                    partNumber, partKeys);
        } else {
            try {
                part = coffer.uploadPartCopy(source, range, r.bucketRecord(), r.key(), uploadId, partNumber);
            } catch (CofferException e) {
                if (e.code() != ErrorCode.INVALID_REQUEST) {
                    throw e;
                }
                // the engine shares no chunks of a source or into an upload under a key: a keyring key is found by
                // its id, a customer key's absence is reported as the keyed read or write finds it
                part = customerKeyCopy.copyPart(source, range, sourceKeys, r.bucketRecord(), r.key(), uploadId,
                        partNumber, partKeys);
            }
        }
        byte[] xml = XmlResponseWriter.document("CopyPartResult")
                .element("LastModified", part.lastModified())
                .element("ETag", ObjectHeaders.quote(part.etag()))
                .toBytes();
        return partKeys.echo(S3Response.xml(200, xml));
    }

    /** Unlike a GET's Range, a copy range is not cut to the source: any byte past its end is InvalidRange. */
    private static void checkWithinSource(ByteRange range, long sourceSize) {
        if (range.first() >= sourceSize || range.last() >= sourceSize) {
            throw new S3Exception(S3ErrorCode.INVALID_RANGE, "Range specified is not valid for source object of size: "
                    + sourceSize);
        }
    }
}
