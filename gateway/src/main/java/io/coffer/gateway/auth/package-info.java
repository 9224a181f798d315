/**
 * Request authentication and body integrity: AWS Signature Version 4 and 2 (Authorization header and presigned query),
 * the aws-chunked payload decoder with its chunk signature chain and trailers, payload hashes and x-amz-checksum-*.
 */
package io.coffer.gateway.auth;
