/**
 * S3 semantics: one handler class per S3 action, the {@link io.coffer.gateway.s3.S3Operation} enum that dispatch,
 * metrics and logs share, request routing and the path and query rules the handlers share ({@code NameRules},
 * {@code PartNumbers}, {@code ListingParams}). Header rules are in {@code io.coffer.gateway.s3.headers}, the S3
 * errors in {@code io.coffer.gateway.error}.
 */
package io.coffer.gateway.s3;
