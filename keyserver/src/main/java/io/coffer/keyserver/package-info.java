/**
 * The DupLESS key-server daemon: transports, rate limiting, key and certificate issuing, command line. The OPRF
 * primitives ({@code coffer-keyserver-oprf}) and the client with its wire codec ({@code coffer-keyserver-client}) are
 * artifacts of their own, so that an embedder of the sdk gets no server on its classpath.
 */
package io.coffer.keyserver;
