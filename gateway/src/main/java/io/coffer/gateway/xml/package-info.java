/**
 * S3's XML: a streaming writer for response bodies and a hardened StAX reader for request bodies (DeleteObjects,
 * CompleteMultipartUpload, CreateBucketConfiguration).
 */
package io.coffer.gateway.xml;
