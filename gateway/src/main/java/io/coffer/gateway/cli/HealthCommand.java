package io.coffer.gateway.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code coffer health}: asks a running gateway's admin port whether it is ready (or live) and exits 0 if so, 1 if
 * not. The container image's HEALTHCHECK runs it, since the image has no shell or curl.
 */
@Command(name = "health", mixinStandardHelpOptions = true,
        description = "Probe a running gateway's /health/ready (or /health/live); exit 0 when healthy, 1 when not.")
final class HealthCommand implements Callable<Integer> {
    @Option(names = "--admin-port", paramLabel = "PORT", defaultValue = "${env:COFFER_ADMIN_PORT:-9001}",
            description = "Admin port of the gateway (default: COFFER_ADMIN_PORT, else 9001).")
    int adminPort;

    @Option(names = "--host", paramLabel = "HOST", defaultValue = "127.0.0.1", description = "Default 127.0.0.1.")
    String host;

    @Option(names = "--live", description = "Probe /health/live (the process answers) instead of /health/ready.")
    boolean live;

    @Option(names = "--timeout-seconds", paramLabel = "N", defaultValue = "3", description = "Default 3.")
    int timeoutSeconds;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        URI uri = URI.create("http://" + host + ":" + adminPort + (live ? "/health/live" : "/health/ready"));
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(timeoutSeconds)).build();
        try {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri)
                    .timeout(Duration.ofSeconds(timeoutSeconds)).GET().build(), HttpResponse.BodyHandlers.ofString());
            spec.commandLine().getOut().println(uri + ": " + r.statusCode() + " " + r.body().strip());
            spec.commandLine().getOut().flush();
            return r.statusCode() == 200 ? 0 : 1;
        } catch (IOException e) {
            spec.commandLine().getErr().println(uri + ": " + e);
            spec.commandLine().getErr().flush();
            return 1;
        }
    }
}
