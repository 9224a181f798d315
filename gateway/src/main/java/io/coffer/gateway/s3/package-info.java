/**
 * S3 semantics: one handler class per S3 action, the {@link io.coffer.gateway.s3.S3Operation} enum that dispatch,
 * metrics and logs share, and request routing. The S3 errors are in {@code io.coffer.gateway.error}.
 */
package io.coffer.gateway.s3;
