/** Whether a kernel on the incubating Vector API can run here, for the engine's and PoR's kernels alike. */
package io.coffer.sdk.vector;
