/**
 * S3 semantics: one handler class per S3 action, the {@link io.coffer.gateway.s3.S3Operation} enum that dispatch,
 * metrics and logs share, request routing, and the single mapping from engine and protocol errors to S3 errors.
 */
package io.coffer.gateway.s3;
