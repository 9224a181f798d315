package io.coffer.sdk.meta;

import java.time.Instant;

/** A pack blob on the backend: its name and total size in bytes. */
public record PackRecord(String name, long size, Instant created) {
}
