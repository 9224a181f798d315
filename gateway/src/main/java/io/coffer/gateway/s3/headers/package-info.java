/**
 * The request and response header rules the S3 handlers share, apart from the handlers themselves. What lives here
 * reads or writes HTTP headers, and nothing else does:
 * <ul>
 * <li>{@link io.coffer.gateway.s3.headers.ObjectHeaders}: an object's response headers (ETag, Last-Modified,
 *   checksums, x-amz-meta-*) and the request headers that describe a body (Content-MD5, x-amz-checksum-*).</li>
 * <li>{@link io.coffer.gateway.s3.headers.EncodedWords}: RFC 2047 encoded-words in x-amz-meta-* values, decoded on
 *   input and made for non-ASCII values on output, as S3 does.</li>
 * <li>{@link io.coffer.gateway.s3.headers.RangeHeader}: the {@code Range} request header.</li>
 * <li>{@link io.coffer.gateway.s3.headers.Conditionals}: the {@code If-*} request headers and their 304/412.</li>
 * <li>{@link io.coffer.gateway.s3.headers.CopySourceHeader}: {@code x-amz-copy-source} and its
 *   {@code x-amz-copy-source-if-*} headers.</li>
 * <li>{@link io.coffer.gateway.s3.headers.FeatureHeaders}: headers that ask for a feature (ACLs, tagging, object lock,
 *   encryption, storage class), honoured or refused.</li>
 * <li>{@link io.coffer.gateway.s3.headers.ObjectSizeLimit}: the limit on the declared {@code Content-Length} (or
 *   {@code x-amz-decoded-content-length}) of an upload, also enforced on the bytes read.</li>
 * </ul>
 * The helpers that read the path and query stay with the handlers in {@code io.coffer.gateway.s3}, being routing:
 * {@code NameRules} (bucket and key from the path), {@code PartNumbers} (the partNumber and uploadId query parameters)
 * and {@code ListingParams} (the listing query parameters and the entries the listing actions write).
 */
package io.coffer.gateway.s3.headers;
