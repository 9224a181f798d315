package io.coffer.sdk;

/** The outcome for one key of DeleteObjects: {@code error} is null on success. */
public record DeleteResult(String key, CofferException error) {
}
