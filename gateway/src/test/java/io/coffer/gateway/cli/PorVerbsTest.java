package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.gateway.config.EngineOpener;
import io.coffer.gateway.config.OpenStore;
import io.coffer.gateway.http.AdminServer;
import io.coffer.gateway.por.EmbeddedPorStore;
import io.coffer.gateway.por.PorService;
import io.coffer.gateway.por.ServerFiles;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code coffer audit}, {@code coffer repair} and {@code coffer por-consolidate} against a store with the embedded PoR
 * server: what they print, their JSON and exit codes (0 passed / repaired / shrunk or unchanged, 1 failed /
 * unrepairable, 2 PoR off or no answer), on a stopped store and through the admin port of a gateway that holds the
 * data directory.
 */
class PorVerbsTest {
    @TempDir
    static Path template;

    private static Map<String, byte[]> objects;

    @TempDir
    Path dir;

    private Path data;

    private record Run(int exit, String out, String err) {
        JsonNode json() throws Exception {
            return new ObjectMapper().readTree(out);
        }
    }

    private static Run coffer(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = CofferCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private Run verb(String verb, String... more) {
        return coffer(Stream.concat(Stream.concat(Stream.of(verb), Stream.of(EmbeddedPorStore.flags(data))),
                Stream.of(more)).toArray(String[]::new));
    }

    /** One store filled through PoR for the class; each test works on a copy. */
    @BeforeAll
    static void fill() {
        try (OpenStore s = EngineOpener.openStore(EmbeddedPorStore.config(template, Map.of()),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))) {
            objects = EmbeddedPorStore.fill(s.coffer(), 7);
        }
    }

    @BeforeEach
    void store() throws Exception {
        data = dir.resolve("data");
        EmbeddedPorStore.copy(template, data);
    }

    @Test
    void anHonestStorePassesItsAuditAndNeedsNoRepair() throws Exception {
        Run text = verb("audit");
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out()).contains("PoR server: embedded (" + data.resolve("por/server").toAbsolutePath())
                .contains("levels checked").contains("code vectors sampled").contains("blocks used: ")
                .contains("of 1024").endsWith("passed" + System.lineSeparator());

        Run json = verb("audit", "--json");
        assertThat(json.exit()).isZero();
        JsonNode a = json.json();
        assertThat(a.path("operation").asText()).isEqualTo("audit");
        assertThat(a.path("verdict").asText()).isEqualTo("passed");
        assertThat(a.path("passed").asBoolean()).isTrue();
        assertThat(a.path("levelsChecked").asInt()).isPositive();
        assertThat(a.path("vectorsSampled").asInt()).isPositive();
        assertThat(a.path("bytesDown").asLong()).isPositive();
        assertThat(a.path("capacity").asInt()).isEqualTo(1024);
        assertThat(a.path("blocksUsed").asInt()).isGreaterThanOrEqualTo(12);

        Run repair = verb("repair", "--json");
        assertThat(repair.exit()).as(repair.err()).isZero();
        JsonNode r = repair.json();
        assertThat(r.path("verdict").asText()).isEqualTo("repaired");
        assertThat(r.path("blocksChecked").asLong()).isEqualTo(a.path("blocksUsed").asLong());
        assertThat(r.path("blocksDamaged").asLong()).isZero();
        assertThat(r.path("unrepairable")).isEmpty();

        Run fsck = verb("fsck", "--read-data");
        assertThat(fsck.exit()).as("the other verbs take --por too: " + fsck.out() + fsck.err()).isZero();
        assertThat(fsck.out()).contains("orphans: 0").endsWith("clean" + System.lineSeparator());
    }

    @Test
    void repairRestoresCorruptedBlocksOfUAndTheObjectsReadBackExactly() throws Exception {
        int corrupted = EmbeddedPorStore.corruptU(data, 3, 11);
        assertThat(corrupted).isGreaterThanOrEqualTo(4);

        Run repair = verb("repair", "--json");
        assertThat(repair.exit()).as(repair.out() + repair.err()).isZero();
        JsonNode r = repair.json();
        assertThat(r.path("blocksDamaged").asLong()).isPositive();
        assertThat(r.path("blocksRepaired").asLong()).isEqualTo(r.path("blocksDamaged").asLong());
        assertThat(r.path("unrepairable")).isEmpty();

        Run again = verb("repair");
        assertThat(again.exit()).isZero();
        assertThat(again.out()).contains(" 0 damaged").endsWith("repaired" + System.lineSeparator());
        try (OpenStore s = EngineOpener.openExistingStore(EmbeddedPorStore.config(data, Map.of()), true, true)) {
            for (Map.Entry<String, byte[]> o : objects.entrySet()) {
                assertThat(EmbeddedPorStore.read(s.coffer(), o.getKey())).as(o.getKey()).isEqualTo(o.getValue());
            }
        }
    }

    @Test
    void anAuditOfAServerThatLostItsCodeFailsWithExitCodeOne() throws Exception {
        assertThat(ServerFiles.destroyCode(data, 5)).isPositive();
        Run text = verb("audit");
        assertThat(text.exit()).as(text.out() + text.err()).isEqualTo(1);
        assertThat(text.out()).endsWith("FAILED" + System.lineSeparator()).contains("detail: ");

        Run json = verb("audit", "--json");
        assertThat(json.exit()).isEqualTo(1);
        assertThat(json.json().path("passed").asBoolean()).isFalse();
        assertThat(json.json().path("verdict").asText()).isEqualTo("failed");
    }

    @Test
    void consolidationShrinksAStoreMostlyFreeDownToTheFloorAndEveryObjectReadsBack() throws Exception {
        Run atFloor = verb("por-consolidate", "--json"); // --por-k 10: the store's own k is the floor
        assertThat(atFloor.exit()).as(atFloor.err()).isZero();
        assertThat(atFloor.json().path("verdict").asText()).isEqualTo("unchanged");
        assertThat(atFloor.json().path("capacity").asInt()).isEqualTo(1024);

        java.nio.file.Path floor = dir.resolve("floor.conf");
        java.nio.file.Files.writeString(floor, "por-k = 6\n"); // a floor below the store's k, as a start may give
        Run shrunk = verb("por-consolidate", "--config", floor.toString());
        assertThat(shrunk.exit()).as(shrunk.out() + shrunk.err()).isZero();
        assertThat(shrunk.out()).contains("capacity 1024 -> 64 blocks").endsWith("shrunk" + System.lineSeparator());

        Run audit = verb("audit", "--json", "--config", floor.toString());
        assertThat(audit.exit()).as(audit.out() + audit.err()).isZero();
        assertThat(audit.json().path("capacity").asInt()).isEqualTo(64);
        try (OpenStore s = EngineOpener.openExistingStore(EmbeddedPorStore.config(data,
                Map.of(io.coffer.gateway.config.ConfigKey.POR_K, "6")), true, true)) {
            for (Map.Entry<String, byte[]> o : objects.entrySet()) {
                assertThat(EmbeddedPorStore.read(s.coffer(), o.getKey())).as(o.getKey()).isEqualTo(o.getValue());
            }
        }
        Run later = verb("audit", "--json"); // the embedded server reads por-k at its first start only
        assertThat(later.exit()).as(later.out() + later.err()).isZero();
        assertThat(later.json().path("capacity").asInt()).isEqualTo(64);
    }

    @Test
    void withoutPorTheVerbsExitTwoSayingHowToEnableIt() {
        for (String verb : new String[] {"audit", "repair"}) {
            Run r = coffer(verb, "--data", data.toString());
            assertThat(r.exit()).as(verb).isEqualTo(2);
            assertThat(r.err()).as(verb).contains("PoR is not enabled").contains("--por embedded");
        }
        Run missing = coffer("audit", "--data", dir.resolve("none").toString(), "--por", "embedded");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("no Coffer store");
        assertThat(dir.resolve("none")).doesNotExist();
    }

    @Test
    void aDataDirectoryHeldByARunningGatewayIsAuditedThroughItsAdminPort() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (OpenStore s = EngineOpener.openStore(EmbeddedPorStore.config(data, Map.of()), registry)) {
            PorService service = new PorService(s.por().orElseThrow(), registry, Clock.systemUTC());
            try (AdminServer admin = new AdminServer("127.0.0.1", 0, registry, () -> true, service).start()) {
                String url = "http://127.0.0.1:" + admin.address().getPort();
                Run audit = verb("audit", "--admin", url, "--json");
                assertThat(audit.exit()).as(audit.out() + audit.err()).isZero();
                assertThat(audit.json().path("verdict").asText()).isEqualTo("passed");
                Run repair = verb("repair", "--admin", url);
                assertThat(repair.exit()).as(repair.err()).isZero();
                assertThat(repair.out()).contains("asking the running gateway at " + url + "/admin/por/repair")
                        .endsWith("repaired" + System.lineSeparator());
                assertThat(registry.scrape()).contains("coffer_por_audits_total{result=\"passed\"} 1.0");
            }
            Run closed = verb("audit", "--admin", "http://127.0.0.1:1");
            assertThat(closed.exit()).isEqualTo(2);
            assertThat(closed.err()).contains("did not answer").contains("--admin");
        }
    }
}
