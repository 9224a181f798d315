/**
 * S3 errors: {@link io.coffer.gateway.error.S3ErrorCode} (wire code, HTTP status, default message, the one mapping
 * from engine error codes) and {@link io.coffer.gateway.error.S3Exception}. A leaf package, so that authentication,
 * XML parsing, the HTTP server and the S3 handlers report errors without depending on one another.
 */
package io.coffer.gateway.error;
