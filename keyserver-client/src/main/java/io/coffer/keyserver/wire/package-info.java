/**
 * The key server's wire codec, shared by the client and the daemon: evaluation requests and responses, their
 * status codes and limits, the KSInit session grant and the HMAC-authenticated OPRFv2 datagram frame.
 *
 * <p>Every byte is documented in {@code docs/KEYSERVER-NOTES.md} ("Wire format").
 */
package io.coffer.keyserver.wire;
