package io.coffer.gateway.cli;

import io.coffer.gateway.config.ConfigKey;
import io.coffer.gateway.config.EngineOpener;
import io.coffer.gateway.config.GatewayConfig;
import io.coffer.gateway.config.OpenStore;
import io.coffer.gateway.config.PorSettings;
import io.coffer.gateway.http.AdminServer;
import io.coffer.gateway.por.PorControl;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code coffer audit} and {@code coffer repair}: with the store options of {@code serve}, one PoR operation on a
 * stopped gateway's store (opened like fsck, its data directory locked meanwhile), or, where a running gateway holds
 * the data directory, on that gateway through its admin port. Exit 0: passed / every damaged block repaired; 1:
 * failed / unrepairable blocks left; 2: a usage error, PoR not enabled, or the operation could not be asked for.
 */
abstract class PorVerb implements Callable<Integer> {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int UNUSABLE = 2;

    @Mixin
    ConfigOptions config;

    @Option(names = "--json", description = "Print the report as one JSON object.")
    boolean json;

    @Option(names = "--admin", paramLabel = "URL",
            description = "The running gateway's admin endpoint, asked when it holds the data directory"
                    + " (default http://BIND:ADMIN-PORT of the configuration).")
    String admin;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** {@code audit} or {@code repair}: the admin endpoint's last path segment. */
    abstract String operation();

    /** True for a verb that only checks: the engine it opens cannot write or delete on the backend. */
    abstract boolean readOnly();

    /** Runs the operation on the open store, prints the report and returns the exit code. */
    abstract int run(PorControl por, PrintWriter out);

    @Override
    public final Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            GatewayConfig c = config.load(Map.of());
            if (DataDirectoryInUse.test(c.dataDir())) {
                return ask(adminUri(c), out, err);
            }
            PorSettings settings = c.porSettings();
            if (!settings.enabled()) {
                err.println("coffer: PoR is not enabled for this store: give --por embedded or --por HOST:PORT"
                        + " (COFFER_POR), as for serve");
                return UNUSABLE;
            }
            try (OpenStore store = EngineOpener.openExistingStore(c, true, readOnly())) {
                if (!json) {
                    out.println("store: " + c.dataDir().toAbsolutePath() + ", PoR server: "
                            + settings.describe(c.dataDir()));
                }
                return run(store.por().orElseThrow(), out);
            }
        } finally {
            out.flush();
            err.flush();
        }
    }

    private URI adminUri(GatewayConfig c) {
        String base = admin;
        if (base == null) {
            String bind = c.get(ConfigKey.BIND);
            String host = bind.equals("0.0.0.0") ? "127.0.0.1" : bind.equals("::") ? "[::1]"
                    : bind.contains(":") ? "[" + bind + "]" : bind;
            base = "http://" + host + ":" + c.get(ConfigKey.ADMIN_PORT);
        }
        return URI.create(base.replaceAll("/+$", "") + "/admin/por/" + operation() + (json ? "" : "?format=text"));
    }

    /** Asks the running gateway; its verdict header gives the exit code. */
    private int ask(URI uri, PrintWriter out, PrintWriter err) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            if (!json) {
                out.println("the data directory is in use: asking the running gateway at " + uri);
            }
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.noBody())
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                err.println("coffer: " + uri + " answered " + r.statusCode() + ": " + r.body().strip());
                return UNUSABLE;
            }
            out.print(r.body());
            String verdict = r.headers().firstValue(AdminServer.VERDICT_HEADER).orElse("");
            return exitCode(verdict);
        } catch (IOException e) {
            err.println("coffer: the data directory is in use, and its gateway's admin port " + uri
                    + " did not answer (" + e + "); give --admin URL, or stop the gateway");
            return UNUSABLE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return UNUSABLE;
        }
    }

    /** The exit code of a verdict ({@code PorReports}' words). */
    abstract int exitCode(String verdict);
}
