/** Splitting byte streams into chunks: FastCDC content-defined chunking and the fixed-size baseline. */
package io.coffer.sdk.chunk;
