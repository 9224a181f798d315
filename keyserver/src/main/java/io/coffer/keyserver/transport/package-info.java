/**
 * Key-server transports: the binary request/response encoding, OPRFv1 (HTTPS with mutual TLS) and OPRFv2
 * (a KSInit session over mutual TLS, then HMAC-authenticated UDP datagrams), with their metrics.
 *
 * <p>Every byte is documented in {@code docs/KEYSERVER-NOTES.md} ("Wire format"). The Netty servers here
 * know nothing of keys or rate limits: they decode, authenticate and hand each query to a
 * {@link io.coffer.keyserver.transport.QueryHandler}.
 */
package io.coffer.keyserver.transport;
