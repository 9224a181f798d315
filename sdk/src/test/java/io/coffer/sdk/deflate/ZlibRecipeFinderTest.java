package io.coffer.sdk.deflate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.sdk.codec.MalformedRecordException;
import io.coffer.sdk.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Zlib recipes: gzip written by the JDK's zlib at any level and with any header is found reproducible and replays to
 * exactly its bytes; what zlib did not write, or not as one member, has no recipe; a replay whose zlib deflates
 * differently stops before the first segment that differs, having written only the original's bytes.
 */
class ZlibRecipeFinderTest {
    private static final int SEGMENT = 4096;

    @TempDir
    Path dir;

    @Test
    void javaZipGzipOfEveryLevelAndHeaderHasARecipeThatReplaysBitExactly() throws Exception {
        byte[] data = TestData.text(11, 200_000);
        byte[][] headers = {
            Gzip.plainHeader(),
            Gzip.header(Gzip.FNAME | Gzip.FCOMMENT | Gzip.FEXTRA | Gzip.FHCRC, new byte[] {1, 2, 3}, "layer.tar", "c"),
        };
        for (byte[] header : headers) {
            for (int level = 1; level <= 9; level++) {
                byte[] gz = Gzip.member(header, Gzip.rawDeflate(data, level), data);
                Found f = find(gz);
                assertThat(f.recipe).as("level %d", level).isPresent();
                assertThat(f.decompressed).isEqualTo(data);
                assertThat(deflatesTheSame(f.recipe.get().level(), level, data)).isTrue();
                assertThat(replay(f.recipe.get(), data)).isEqualTo(gz);
                assertThat(f.recipe.get().size()).isEqualTo(gz.length);
            }
        }
    }

    @Test
    void emptyAndIncompressibleContentReplayBitExactly() throws Exception {
        for (byte[] data : new byte[][] {new byte[0], TestData.bytes(12, 100_000)}) {
            byte[] gz = Gzip.member(Gzip.plainHeader(), Gzip.rawDeflate(data, 6), data);
            Found f = find(gz);
            assertThat(f.recipe).isPresent();
            assertThat(replay(f.recipe.get(), data)).isEqualTo(gz);
        }
    }

    @Test
    void multiMemberTrailingBytesTruncatedHostileAndNonZlibStreamsHaveNoRecipe() throws Exception {
        byte[] data = TestData.text(13, 100_000);
        byte[] gz = Gzip.member(data, 6);
        byte[] stored = Gzip.member(Gzip.plainHeader(), Gzip.rawDeflate(data, 0), data);
        byte[] badDistance = Gzip.concat(Gzip.plainHeader(), new byte[] {0x63, 0x04, 0x02, 0x00}, new byte[8]);
        assertThat(find(Gzip.concat(gz, gz)).recipe).as("two members").isEmpty();
        assertThat(find(Gzip.concat(gz, new byte[] {0, 0, 0})).recipe).as("trailing zeros").isEmpty();
        assertThat(find(Arrays.copyOf(gz, gz.length - 9)).recipe).as("truncated").isEmpty();
        assertThat(find(Arrays.copyOf(gz, 5)).recipe).as("truncated header").isEmpty();
        assertThat(find(stored).recipe).as("stored blocks (level 0)").isEmpty();
        assertThat(find(badDistance).recipe).as("garbage after a gzip header").isEmpty();
        assertThat(find("not gzip at all".getBytes(StandardCharsets.US_ASCII)).recipe).isEmpty();
    }

    @Test
    void aDecompressionBombHasNoRecipeAndItsOutputStopsAtTheLimit() throws Exception {
        byte[] zeros = new byte[20 << 20];
        byte[] bomb = Gzip.member(zeros, 9); // about 20 KB that expand a thousandfold
        Path original = Files.write(dir.resolve("bomb.gz"), bomb);
        Path out = dir.resolve("bomb.data");
        ZlibRecipeFinder finder = new ZlibRecipeFinder(DecodeLimits.DEFAULT.withMaxExpansion(50), SEGMENT);
        assertThat(finder.find(original, bomb.length, out)).isEmpty();
        assertThat(Files.size(out)).isLessThanOrEqualTo(50L * bomb.length + (64 << 10) + (64 << 10));
    }

    @Test
    void aReplayThatDeflatesDifferentlyStopsBeforeTheFirstDifferingSegment() throws Exception {
        byte[] data = TestData.text(14, 400_000);
        byte[] gz = Gzip.member(data, 9);
        ZlibRecipe recipe = find(gz).recipe.orElseThrow();
        byte[] changed = data.clone();
        changed[changed.length - 1000] ^= 1; // the deflate stream now differs near its end, as another zlib's might
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThatThrownBy(() -> new ZlibReplay().encode(recipe, new ByteArrayInputStream(changed), out))
                .isInstanceOf(ZlibMismatchException.class).hasMessageContaining(recipe.zlib());
        byte[] written = out.toByteArray();
        assertThat(written.length).isPositive().isLessThan(gz.length);
        assertThat(written.length % SEGMENT).isZero();
        assertThat(written).isEqualTo(Arrays.copyOf(gz, written.length));

        ZlibRecipe otherLevel = new ZlibRecipe(recipe.header(), 1, recipe.deflatedLength(), recipe.trailer(),
                recipe.zlib(), SEGMENT, recipe.segmentHashes());
        ByteArrayOutputStream none = new ByteArrayOutputStream();
        assertThatThrownBy(() -> new ZlibReplay().encode(otherLevel, new ByteArrayInputStream(data), none))
                .isInstanceOf(ZlibMismatchException.class);
        assertThat(none.size()).isZero();
    }

    @Test
    void recipeBytesParseBackAndDamagedOnesAreRefused() throws Exception {
        byte[] data = TestData.text(15, 50_000);
        ZlibRecipe recipe = find(Gzip.member(data, 9)).recipe.orElseThrow();
        byte[] bytes = recipe.toBytes();
        assertThat(ZlibRecipe.isRecipe(bytes)).isTrue();
        assertThat(ZlibRecipe.parse(bytes)).isEqualTo(recipe);
        assertThat(ZlibRecipe.parse(bytes).zlib()).isEqualTo(ZlibIdentity.current()).isNotBlank();
        assertThatThrownBy(() -> ZlibRecipe.parse(Arrays.copyOf(bytes, bytes.length - 1)))
                .isInstanceOf(MalformedRecordException.class);
        assertThatThrownBy(() -> ZlibRecipe.parse(Gzip.concat(bytes, new byte[1])))
                .isInstanceOf(MalformedRecordException.class);
        byte[] otherMemLevel = bytes.clone();
        int memLevelAt = ZlibRecipe.MAGIC.length + 1 + recipe.header().length + 3;
        assertThat(otherMemLevel[memLevelAt]).isEqualTo((byte) ZlibRecipe.MEM_LEVEL);
        otherMemLevel[memLevelAt] = 9;
        assertThatThrownBy(() -> ZlibRecipe.parse(otherMemLevel)).isInstanceOf(MalformedRecordException.class)
                .hasMessageContaining("memLevel 9");
        assertThat(ZlibRecipe.isRecipe(SideInfoWriter.MAGIC)).isFalse();
    }

    /**
     * A recipe whose data entries are a split tar is version 2, with the metadata stream's length at its end; one
     * without is version 1, byte for byte as before, so layers written before the split read as they did.
     */
    @Test
    void aTarSplitRecipeIsVersionTwoAndAPlainOneStaysVersionOne() throws Exception {
        ZlibRecipe plain = find(Gzip.member(TestData.text(16, 20_000), 9)).recipe.orElseThrow();
        byte[] v1 = plain.toBytes();
        assertThat(v1[3]).isEqualTo((byte) 1);
        assertThat(plain.tarMetadata()).isZero();
        ZlibRecipe split = plain.withTarMetadata(5 * 512L);
        byte[] v2 = split.toBytes();
        assertThat(v2[3]).isEqualTo((byte) 2);
        assertThat(Arrays.copyOfRange(v2, 4, v1.length)).isEqualTo(Arrays.copyOfRange(v1, 4, v1.length));
        assertThat(ZlibRecipe.isRecipe(v2)).isTrue();
        assertThat(ZlibRecipe.parse(v2)).isEqualTo(split);
        assertThat(ZlibRecipe.parse(v2).tarMetadata()).isEqualTo(5 * 512L);
        assertThat(ZlibRecipe.parse(v1)).isEqualTo(plain);
        byte[] noMetadata = Gzip.concat(Arrays.copyOf(v2, v1.length), new byte[1]);
        assertThatThrownBy(() -> ZlibRecipe.parse(noMetadata)).isInstanceOf(MalformedRecordException.class)
                .hasMessageContaining("without tar metadata");
        byte[] v3 = v2.clone();
        v3[3] = 3;
        assertThat(ZlibRecipe.isRecipe(v3)).isFalse();
        assertThatThrownBy(() -> ZlibRecipe.parse(v3)).isInstanceOf(MalformedRecordException.class);
    }

    /** Whether two levels give the same deflate stream for {@code data} (levels 1..3 and 4..9 may coincide). */
    private static boolean deflatesTheSame(int a, int b, byte[] data) {
        return Arrays.equals(Gzip.rawDeflate(data, a), Gzip.rawDeflate(data, b));
    }

    private record Found(Optional<ZlibRecipe> recipe, byte[] decompressed) {
    }

    private Found find(byte[] gz) throws IOException {
        Path original = Files.createTempFile(dir, "o", ".gz");
        Files.write(original, gz);
        Path out = Files.createTempFile(dir, "d", ".data");
        Optional<ZlibRecipe> r = new ZlibRecipeFinder(DecodeLimits.DEFAULT, SEGMENT).find(original, gz.length, out);
        return new Found(r, Files.readAllBytes(out));
    }

    private static byte[] replay(ZlibRecipe recipe, byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long n = new ZlibReplay().encode(recipe, new ByteArrayInputStream(data), out);
        assertThat(n).isEqualTo(out.size());
        return out.toByteArray();
    }
}
