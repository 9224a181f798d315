/**
 * Key-server key material on disk, as both ends read it: the directory layout (OPRF keys with rotation, a private
 * CA, the server certificate and client certificates), PEM files, and the one rule for secret files (created 0600,
 * refused when group or others may read them). The daemon's {@code KeyServerInit} creates these files.
 */
package io.coffer.keyserver.pki;
