package io.coffer.gateway.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.gateway.testing.CofferGatewayExtension;
import io.coffer.sdk.Coffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * boto3 on its default settings (1.36 and later validate response checksums) reading parts of an object it stored with
 * one PUT: a ranged get_object, download_file above the 8 MiB threshold (ranged GETs), UploadPartCopy with
 * x-amz-copy-source-range and a part of the result. The script (test resource clients/python/boto3_partial_reads.py)
 * prints what it saw as JSON; this class asserts.
 */
class Boto3PartialReadsTest {
    @RegisterExtension
    static CofferGatewayExtension gateway = CofferGatewayExtension
            .withEngine(dir -> Coffer.builder().directory(dir).build());

    @TempDir
    Path work;

    @Test
    void rangedReadsOfAnObjectWithAChecksumPassBoto3sValidation() throws Exception {
        long size = 12L * 1024 * 1024 + 777;
        Path source = TestFiles.write(work.resolve("source.bin"), 17, size);
        Path download = work.resolve("download.bin");
        String args = "{\"endpoint\": \"" + gateway.endpoint() + "\", \"bucket\": \"boto3-partial\", \"source\": \""
                + source + "\", \"download\": \"" + download + "\"}";
        JsonNode result = ExternalClients.boto3Script(gateway, work, "boto3_partial_reads.py", args,
                Duration.ofMinutes(3));

        byte[] data = Files.readAllBytes(source);
        assertThat(text(result, "ranged_md5")).isEqualTo(md5(Arrays.copyOfRange(data, 1000, 2000)));
        assertThat(text(result, "ranged_content_range")).isEqualTo("bytes 1000-1999/" + size);
        assertThat(text(result, "whole_md5")).isEqualTo(md5(data));
        assertThat(text(result, "whole_crc32")).as("boto3's default CRC32, stored").isNotBlank();
        assertThat(TestFiles.md5Hex(download)).isEqualTo(md5(data));
        assertThat(text(result, "copied_md5")).isEqualTo(md5(data));
        assertThat(text(result, "copied_part2_md5")).isEqualTo(md5(Arrays.copyOfRange(data, data.length / 2,
                data.length)));
        assertThat(text(result, "copied_parts_count")).isEqualTo("2");
    }

    private static String md5(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(b));
    }

    private static String text(JsonNode result, String field) {
        JsonNode n = result.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + result));
        return n.isNumber() ? n.asNumber() : n.asString();
    }
}
