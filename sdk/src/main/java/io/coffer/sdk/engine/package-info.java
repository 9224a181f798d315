/** The engine behind {@link io.coffer.sdk.Coffer}: the write and read paths, multipart, copy and their commits. */
package io.coffer.sdk.engine;
