/** Chunk encryption, chunk identifiers and the master key that seals manifests and pack indexes. */
package io.coffer.sdk.crypto;
