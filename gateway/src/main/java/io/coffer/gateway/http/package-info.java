/**
 * The Netty HTTP/1.1 servers: the S3 endpoint (bootstrap, pipeline, per-connection request state, streaming request
 * bodies through a bounded pipe and the {@link io.coffer.gateway.http.RequestBodyStack} that decodes and verifies them,
 * response bodies by writability) and the admin endpoint (health, metrics).
 */
package io.coffer.gateway.http;
