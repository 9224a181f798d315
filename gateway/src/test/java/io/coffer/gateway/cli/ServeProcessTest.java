package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.gateway.config.CredentialsFile;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code coffer serve} in its own JVM with the shipped logging configuration, output read as an operator reads it. */
class ServeProcessTest {
    private static final Pattern ENDPOINT = Pattern.compile("endpoint:\\s+http://127\\.0\\.0\\.1:(\\d+)");
    private static final Duration START = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void logsGoToStdoutJsonAccessLinesAreBareAndAFreshSecretIsNotPrintedToALog() throws Exception {
        Path data = dir.resolve("data");
        String secret;
        try (CofferProcess serve = CofferProcess.start(dir, Map.of(), "serve", "--data", data.toString(), "--port", "0",
                "--admin-port", String.valueOf(freePort()), "--log-format", "json")) {
            Matcher m = ENDPOINT.matcher(serve.awaitOut(l -> ENDPOINT.matcher(l).find(), START));
            assertThat(m.find()).isTrue();
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + m.group(1) + "/")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(403);
            String access = serve.awaitOut(l -> l.contains("\"status\":403"), Duration.ofSeconds(10));

            assertThat(access).startsWith("{").endsWith("}");
            JsonNode json = new ObjectMapper().readTree(access);
            assertThat(json.get("status").asInt()).isEqualTo(403);
            assertThat(json.get("method").asText()).isEqualTo("GET");
            assertThat(serve.out()).contains("S3 endpoint listening on");
            assertThat(serve.err()).doesNotContain("S3 endpoint listening on").doesNotContain("\"status\"");

            Properties creds = new Properties();
            try (var reader = Files.newBufferedReader(data.resolve(CredentialsFile.FILE_NAME))) {
                creds.load(reader);
            }
            secret = creds.getProperty("secret-key");
            assertThat(secret).isNotBlank();
            assertThat(serve.out()).contains("access key: " + creds.getProperty("access-key"))
                    .contains("secret key: created now, in " + data.toAbsolutePath().resolve("credentials"));
            assertThat(serve.out() + serve.err()).doesNotContain(secret);
        }
    }

    @Test
    void aPortInUseIsAnErrorNamingTheAddressAndWhichPortItIs() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            CofferProcess.Result s3 = CofferProcess.run(dir, Map.of(), "serve", "--data", dir.resolve("d1").toString(),
                    "--port", String.valueOf(port), "--admin-port", String.valueOf(freePort()));
            assertThat(s3.exitCode()).isEqualTo(2);
            assertThat(s3.err()).contains("cannot listen on 127.0.0.1:" + port + " (S3 port)")
                    .containsIgnoringCase("address already in use");

            CofferProcess.Result admin = CofferProcess.run(dir, Map.of(), "serve", "--data",
                    dir.resolve("d2").toString(), "--port", "0", "--admin-port", String.valueOf(port));
            assertThat(admin.exitCode()).isEqualTo(2);
            assertThat(admin.err()).contains("cannot listen on 127.0.0.1:" + port + " (admin port)")
                    .containsIgnoringCase("address already in use");
        }
    }

    @Test
    void aCredentialsFileOthersMayReadStopsTheStart() throws Exception {
        Path data = dir.resolve("data");
        Files.createDirectories(data);
        Path file = data.resolve(CredentialsFile.FILE_NAME);
        Files.writeString(file, "access-key=AK\nsecret-key=SK\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        CofferProcess.Result r = CofferProcess.run(dir, Map.of(), "serve", "--data", data.toString(), "--port", "0",
                "--admin-port", String.valueOf(freePort()));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("credentials file " + file).contains("group or others").contains("chmod 600");
    }

    @Test
    void aTlsKeyOthersMayReadStopsTheStart() throws Exception {
        Path cert = Files.writeString(dir.resolve("gateway.crt"), "-----BEGIN CERTIFICATE-----\n");
        Path key = Files.writeString(dir.resolve("gateway.key"), "-----BEGIN PRIVATE KEY-----\n");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r-----"));
        CofferProcess.Result r = CofferProcess.run(dir, Map.of(), "serve", "--data", dir.resolve("data").toString(),
                "--port", "0", "--admin-port", String.valueOf(freePort()), "--tls-cert", cert.toString(),
                "--tls-key", key.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("TLS private key file " + key).contains("group or others").contains("chmod 600");
        assertThat(dir.resolve("data/master.key")).as("refused before the store is opened").doesNotExist();
    }

    /**
     * {@code serve --por embedded}: the banner names the PoR server and the audit interval, the scheduled audit runs
     * and logs its line, and the admin port answers an audit; {@code coffer audit} beside it asks that port.
     */
    @Test
    void servesWithTheEmbeddedPorServerAuditsOnScheduleAndAnswersAuditsOnTheAdminPort() throws Exception {
        Path data = dir.resolve("data");
        int adminPort = freePort();
        try (CofferProcess serve = CofferProcess.start(dir, Map.of(), "serve", "--data", data.toString(), "--port",
                "0", "--admin-port", String.valueOf(adminPort), "--por", "embedded", "--por-k", "8",
                "--por-block-size", "4096", "--por-audit-interval", "2s")) {
            String banner = serve.awaitOut(l -> l.contains("PoR:"), START);
            assertThat(banner).contains("embedded (" + data.resolve("por/server").toAbsolutePath() + ")")
                    .contains("audits every 2s");
            String logged = serve.awaitOut(l -> l.contains("PoR audit passed"), START);
            assertThat(logged).contains("levels").contains("vectors").contains("bytes down").contains(" ms");
            HttpResponse<String> audit = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + adminPort + "/admin/por/audit")).POST(HttpRequest.BodyPublishers.noBody())
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(audit.statusCode()).isEqualTo(200);
            assertThat(new ObjectMapper().readTree(audit.body()).path("passed").asBoolean()).isTrue();

            CofferProcess.Result asked = CofferProcess.run(dir, Map.of(), "audit", "--data", data.toString(),
                    "--admin", "http://127.0.0.1:" + adminPort);
            assertThat(asked.exitCode()).as(asked.out() + asked.err()).isZero();
            assertThat(asked.out()).contains("asking the running gateway").contains("passed");
        }
    }
}
