/** Flat blob storage the engine writes packs and manifests to: a local directory, S3, or memory. */
package io.coffer.sdk.blob;
