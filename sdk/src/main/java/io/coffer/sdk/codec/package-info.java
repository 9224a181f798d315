/** The strict binary encoding shared by manifests, pack indexes and bucket records (docs/FORMAT.md, "Encoding"). */
package io.coffer.sdk.codec;
