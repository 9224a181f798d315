/** Dynamic proofs of retrievability (Shi, Stefanov, Papamanthou): field, codes, checksums, verifier and prover. */
package io.coffer.por;
