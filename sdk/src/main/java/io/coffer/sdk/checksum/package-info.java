/**
 * The additional checksums S3 offers ({@code x-amz-checksum-*}) and how a multipart object's checksum is made from
 * its parts' (composite or full-object).
 */
package io.coffer.sdk.checksum;
