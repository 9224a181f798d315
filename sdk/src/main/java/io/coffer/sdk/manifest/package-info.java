/** Manifests: the ordered chunk list of an object (ids, keys, hashes, lengths) and its encoding. */
package io.coffer.sdk.manifest;
