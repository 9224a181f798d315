package io.coffer.gateway.s3.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.error.S3ErrorCode;
import io.coffer.gateway.error.S3Exception;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The keyring file: its format, the key ids clients may send for its entries, and what it refuses. */
class KmsKeyringTest {
    private static final String KEY = Base64.getEncoder().encodeToString(filled(1));

    @TempDir
    Path dir;

    @Test
    void keysAreFoundByIdAliasAndArnAndTheDefaultIsTheAwsS3Alias() throws IOException {
        KmsKeyring ring = KmsKeyring.parse(List.of("# comment", "", "testkey-1 " + KEY,
                "alias/backups " + Base64.getEncoder().encodeToString(filled(2)),
                "  alias/aws/s3\t" + Base64.getEncoder().encodeToString(filled(3))), "t");
        assertThat(ring.forWrite("testkey-1").id()).isEqualTo("testkey-1");
        assertThat(ring.forWrite("arn:aws:kms:eu-west-1:123456789012:key/testkey-1").id()).isEqualTo("testkey-1");
        assertThat(ring.forWrite("alias/backups").id()).isEqualTo("alias/backups");
        assertThat(ring.forWrite("arn:aws:kms:us-east-1:123456789012:alias/backups").id()).isEqualTo("alias/backups");
        assertThat(ring.forWrite(null).id()).isEqualTo(KmsKeyring.DEFAULT_ID);
        assertThat(ring.forRead("alias/backups").objectKey()).isNotEqualTo(ring.forRead("testkey-1").objectKey());
        assertThat(ring.toString()).doesNotContain(KEY);
    }

    @Test
    void unknownIdsAndAMissingDefaultAreKmsNotFound() throws IOException {
        KmsKeyring ring = KmsKeyring.parse(List.of("testkey-1 " + KEY), "t");
        assertCode(() -> ring.forWrite("testkey-2"), S3ErrorCode.KMS_NOT_FOUND);
        assertCode(() -> ring.forWrite("arn:aws:kms:us-east-1:1:key/testkey-2"), S3ErrorCode.KMS_NOT_FOUND);
        assertCode(() -> ring.forWrite(null), S3ErrorCode.KMS_NOT_FOUND);
        assertCode(() -> ring.forRead("gone"), S3ErrorCode.KMS_NOT_FOUND);
    }

    @Test
    void withoutAKeyringEveryKmsRequestIsNotImplemented() {
        assertThat(KmsKeyring.NONE.configured()).isFalse();
        assertCode(() -> KmsKeyring.NONE.forWrite("testkey-1"), S3ErrorCode.NOT_IMPLEMENTED);
        assertCode(() -> KmsKeyring.NONE.forRead("testkey-1"), S3ErrorCode.NOT_IMPLEMENTED);
    }

    @Test
    void malformedLinesAreRefusedNamingTheLineButNeverTheKey() {
        refused(List.of("testkey-1"), "line 1");
        refused(List.of("testkey-1 " + KEY + " extra"), "line 1");
        refused(List.of("# c", "testkey-1 not*base64"), "line 2: the key is not base64");
        refused(List.of("short " + Base64.getEncoder().encodeToString(new byte[16])), "16 bytes");
        refused(List.of("a " + KEY, "a " + KEY), "appears twice");
        refused(List.of("arn:aws:kms:us-east-1:1:key/x " + KEY), "line 1");
        refused(List.of("# only a comment"), "holds no keys");
    }

    @Test
    void fileReadableByOthersIsRefusedAndAPrivateOneLoads() throws IOException {
        Path file = dir.resolve("keyring");
        Files.writeString(file, "testkey-1 " + KEY + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> KmsKeyring.load(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("KMS keyring file").hasMessageContaining("chmod 600");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertThat(KmsKeyring.load(file).forWrite("testkey-1").id()).isEqualTo("testkey-1");
    }

    private static void refused(List<String> lines, String message) {
        assertThatThrownBy(() -> KmsKeyring.parse(lines, "t")).isInstanceOf(IOException.class)
                .hasMessageContaining(message).satisfies(e -> assertThat(e.getMessage()).doesNotContain(KEY));
    }

    private static void assertCode(Runnable call, S3ErrorCode code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(S3Exception.class,
                e -> assertThat(e.error()).isEqualTo(code));
    }

    private static byte[] filled(int seed) {
        byte[] b = new byte[32];
        Arrays.fill(b, (byte) seed);
        return b;
    }
}
