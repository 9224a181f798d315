/**
 * The MD5 of upload bodies (S3's ETags) as the chunk reader reads them: several bodies at once in the lanes of vectors
 * ({@code Md5Lanes}), one at a time where they cannot share.
 */
package io.coffer.sdk.digest;
