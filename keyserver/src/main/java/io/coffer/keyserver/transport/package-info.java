/**
 * Key-server transports: the Netty servers for OPRFv1 (HTTPS with mutual TLS) and OPRFv2 (a KSInit session over
 * mutual TLS, then HMAC-authenticated UDP datagrams), with their metrics.
 *
 * <p>The messages they carry are {@link io.coffer.keyserver.wire}'s, shared with the client. The servers here know
 * nothing of keys or rate limits: they decode, authenticate and hand each query to a
 * {@link io.coffer.keyserver.transport.QueryHandler}.
 */
package io.coffer.keyserver.transport;
