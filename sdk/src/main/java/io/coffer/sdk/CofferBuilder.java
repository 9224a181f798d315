package io.coffer.sdk;

/** Builds a {@link Coffer}; every option is validated as it is set. */
public final class CofferBuilder {
    CofferBuilder() {
    }
}
