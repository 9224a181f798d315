/** DupLESS key server: oblivious PRF protocols, transports, rate limiting, daemon and client. */
package io.coffer.keyserver;
