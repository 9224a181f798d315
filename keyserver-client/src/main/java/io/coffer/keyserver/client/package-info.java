/**
 * What the storage engine calls to turn chunk hashes into message-locked keys: {@link
 * io.coffer.keyserver.client.KeyServerClient} (remote key server over OPRFv1 or OPRFv2, answers verified
 * against a pinned public key) and {@link io.coffer.keyserver.client.LocalEvaluator} (the same OPRF
 * in-process), both behind {@link io.coffer.keyserver.client.OprfEvaluator}.
 */
package io.coffer.keyserver.client;
