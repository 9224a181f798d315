/**
 * CORS as S3 defines it: a bucket's rules (PutBucketCors, validated and stored as canonical XML), preflight
 * {@code OPTIONS} requests answered from them, and the Access-Control-* headers of actual requests that carry a
 * matching {@code Origin}.
 */
package io.coffer.gateway.s3.cors;
