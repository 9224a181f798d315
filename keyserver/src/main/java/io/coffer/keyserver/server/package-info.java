/**
 * The key-server daemon: {@link io.coffer.keyserver.server.KeyServer} loads a key-server directory, serves
 * OPRFv1 and OPRFv2 with per-client rate limiting, and exposes health and Prometheus metrics;
 * {@link io.coffer.keyserver.server.KeyServerCommand} is the command-line front end the gateway wraps.
 */
package io.coffer.keyserver.server;
