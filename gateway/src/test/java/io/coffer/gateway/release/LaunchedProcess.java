package io.coffer.gateway.release;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What the release tests do with a process the {@code ./coffer} launcher started (a gateway, a key server): wait until
 * its admin port's {@code /health/ready} answers 200, and stop it with everything it started.
 */
public final class LaunchedProcess {
    private LaunchedProcess() {
    }

    /**
     * Polls {@code /health/ready} on {@code adminPort} until it answers 200; fails with {@code what} and the process's
     * {@code output} when {@code refusal} names a reason, the process exits, or {@code timeout} passes.
     */
    public static void awaitReady(Process process, int adminPort, Duration timeout, String what, Supplier<String> output,
                           Supplier<Optional<String>> refusal) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/health/ready"))
                .timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<String> refused = refusal.get();
            if (refused.isPresent()) {
                throw new AssertionError(refused.get() + "; its output:\n" + output.get());
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (!process.isAlive()) {
                throw new AssertionError(what + " exited with status " + process.exitValue()
                        + " before it was ready; its output:\n" + output.get());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " was not ready after " + timeout + "; its output:\n" + output.get());
            }
            Thread.sleep(200);
        }
    }

    /** SIGTERM to the process and what it started, then, after {@code grace}, a forced kill. */
    static void stop(Process process, Duration grace) throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(grace.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
