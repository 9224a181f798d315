/**
 * Per-client rate limiting of OPRF queries as in DupLESS: Bounded (q queries per epoch), Fixed delay,
 * Exponential delay, and the active-client list of the delay mechanisms. A batch of n elements counts as
 * n queries. Limiters decide; the server applies delays with a scheduler.
 */
package io.coffer.keyserver.ratelimit;
