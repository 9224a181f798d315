/**
 * Key-server key material on disk: the OPRF keys (with rotation), a private CA, the server certificate and
 * client certificates, as PEM files whose private parts are created with POSIX permissions 0600.
 */
package io.coffer.keyserver.pki;
