/**
 * The gateway's configuration: every setting with its default, read from a {@code key = value} file, overridden by
 * {@code COFFER_*} environment variables (and {@code COFFER_*_FILE} for secrets), overridden by command-line flags;
 * validated once and printed with secrets redacted.
 */
package io.coffer.gateway.config;
