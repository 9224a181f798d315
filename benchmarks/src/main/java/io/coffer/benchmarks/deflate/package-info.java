/** Benchmarks of partial deflate decoding and bit-exact re-encoding (issue 20): layer restore and decode speed. */
package io.coffer.benchmarks.deflate;
