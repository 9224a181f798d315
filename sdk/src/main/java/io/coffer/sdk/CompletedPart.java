package io.coffer.sdk;

/** One entry of a CompleteMultipartUpload request: the part number and the ETag the client got for it. */
public record CompletedPart(int partNumber, String etag) {
}
