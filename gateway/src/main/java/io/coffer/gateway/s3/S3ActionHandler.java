package io.coffer.gateway.s3;

import java.io.IOException;

/** Carries out one S3 action on the engine. Runs on a worker thread; may block. */
@FunctionalInterface
public interface S3ActionHandler {
    S3Response handle(S3Request request) throws IOException;
}
