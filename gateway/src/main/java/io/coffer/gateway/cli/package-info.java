/**
 * The {@code coffer} command line (picocli): {@code serve}, {@code config check}, {@code fsck}, {@code gc} and
 * {@code reindex}, sharing one set of configuration flags.
 */
package io.coffer.gateway.cli;
