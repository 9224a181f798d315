package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.coffer.sdk.Coffer;
import io.coffer.sdk.PutObjectRequest;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code coffer stats} through the command line, on a directory store. */
class StatsCommandTest {
    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = CofferCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int rc = cl.execute(args);
        return new Run(rc, out.toString(), err.toString());
    }

    /** Bucket "docs" of alice holds one 300 000-byte text twice; bucket "empty" of bob holds nothing. */
    private Path store() {
        Path data = dir.resolve("data");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; sb.length() < 300_000; i++) {
            sb.append("row ").append(i % 50).append(" of a table that compresses well\n");
        }
        byte[] body = sb.substring(0, 300_000).getBytes(StandardCharsets.US_ASCII);
        try (Coffer coffer = Coffer.builder().directory(data).build()) {
            coffer.createBucket("docs", "alice");
            coffer.createBucket("empty", "bob");
            for (String key : new String[] {"one", "two"}) {
                coffer.putObject(PutObjectRequest.of("docs", key, body.length), new ByteArrayInputStream(body));
            }
        }
        return data;
    }

    @Test
    void statsPrintsATableWithARowPerBucketTenantAndTheStore() {
        Run r = run("stats", "--data", store().toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("(?m)^bucket +owner +objects +logical +inline +chunks +referenced +stored"
                        + " +dedup +compression +total$")
                .containsPattern("(?m)^docs +alice +2 +600000 +0 +\\d+ +300000 +\\d+ +2\\.000 +\\d+\\.\\d{3}"
                        + " +\\d+\\.\\d{3}$")
                .containsPattern("(?m)^empty +bob +0 +0 +0 +0 +0 +0 +- +- +-$")
                .containsPattern("(?m)^alice +2 +600000 ")
                .containsPattern("(?m)^\\(all\\) +2 +600000 ")
                .contains("chunks of unknown plaintext length: 0");
    }

    @Test
    void statsJsonIsOneObjectWithTheSameFigures() throws Exception {
        Run r = run("stats", "--json", "--data", store().toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        JsonNode docs = json.get("buckets").get(0);
        assertThat(docs.get("bucket").asText()).isEqualTo("docs");
        assertThat(docs.get("owner").asText()).isEqualTo("alice");
        assertThat(docs.get("objects").asLong()).isEqualTo(2);
        assertThat(docs.get("logicalBytes").asLong()).isEqualTo(600_000);
        assertThat(docs.get("referencedBytes").asLong()).isEqualTo(300_000);
        assertThat(docs.get("dedupRatio").asDouble()).isEqualTo(2.0);
        assertThat(docs.get("compressionRatio").asDouble()).isGreaterThan(2.0);
        assertThat(docs.get("storedBytes").asLong()).isLessThan(150_000);
        JsonNode empty = json.get("buckets").get(1);
        assertThat(empty.get("bucket").asText()).isEqualTo("empty");
        assertThat(empty.get("dedupRatio").isNull()).isTrue();
        assertThat(json.get("tenants").findValuesAsText("owner")).containsExactly("alice", "bob");
        assertThat(json.get("store").get("storedBytes").asLong()).isEqualTo(docs.get("storedBytes").asLong());
        assertThat(json.get("store").get("packs").asLong()).isPositive();
    }

    @Test
    void statsExitsTwoWithAMessageWhereThereIsNoStoreOrAnUnknownOption() {
        Run missing = run("stats", "--data", dir.resolve("nothing").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("no Coffer store in");
        assertThat(missing.out()).isEmpty();
        Run unknown = run("stats", "--no-such-option");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("Unknown option: '--no-such-option'");
    }
}
