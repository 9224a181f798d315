/** Packs: immutable backend blobs holding many encrypted chunks followed by a sealed index of them. */
package io.coffer.sdk.pack;
