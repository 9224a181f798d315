/**
 * Oblivious pseudorandom functions: DupLESS's RSA-OPRF (blind RSA full-domain hash) and the RFC 9497
 * OPRF/VOPRF over P-256 with SHA-256, with the RFC 9380 hash-to-curve they rely on.
 *
 * <p>{@link io.coffer.keyserver.oprf.Oprf} is the entry point: {@code Oprf.client(publicKey)} gives the
 * blinding and verifying side, {@code Oprf.server(privateKey)} the evaluating side. Every output is 32 bytes.
 */
package io.coffer.keyserver.oprf;
