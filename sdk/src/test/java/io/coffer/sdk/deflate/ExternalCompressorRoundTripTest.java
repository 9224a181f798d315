package io.coffer.sdk.deflate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bit-exact round trips of what real compressors write: the gzip binary at -1..-9 (and --rsyncable), Python's zlib
 * over levels, window sizes, memory levels, strategies and flush modes, and pigz. Each is skipped, with a message,
 * where its program is not installed (gzip and python3 are on CI machines; pigz is not installed on the development
 * machine either, so its test is skipped there).
 */
class ExternalCompressorRoundTripTest {
    @TempDir
    static Path dir;
    private static Path input;
    private static byte[] data;

    @BeforeAll
    static void writeInput() throws IOException {
        data = Gzip.concat(JavaZipRoundTripTest.corpus(250_000, 11), new byte[10_000],
                JavaZipRoundTripTest.corpus(150_000, 12));
        input = dir.resolve("layer.tar");
        Files.write(input, data);
    }

    @Test
    void gzipBinaryOutputAtLevelsOneToNineRoundTripsBitExactly() throws Exception {
        Path gzip = requireProgram("gzip");
        for (String level : List.of("-1", "-2", "-3", "-4", "-5", "-6", "-7", "-8", "-9")) {
            for (List<String> extra : List.of(List.<String>of(), List.of("-n"), List.of("--rsyncable"))) {
                List<String> cmd = new ArrayList<>(List.of(gzip.toString(), level, "-c"));
                cmd.addAll(extra);
                cmd.add(input.toString());
                byte[] gz = run(cmd);
                RoundTrip.assertExact(gz).assertTokensExpandTo(data);
            }
        }
    }

    @Test
    void pythonZlibAtSeveralLevelsWindowsMemoryLevelsStrategiesAndFlushesRoundTripsBitExactly() throws Exception {
        Path python = requireProgram("python3");
        Path out = Files.createDirectories(dir.resolve("python"));
        String script = String.join("\n",
                "import sys, zlib, os",
                "src, out = sys.argv[1], sys.argv[2]",
                "data = open(src, 'rb').read()",
                "strategies = {'default': zlib.Z_DEFAULT_STRATEGY, 'filtered': zlib.Z_FILTERED,",
                "  'huffman': zlib.Z_HUFFMAN_ONLY, 'rle': zlib.Z_RLE, 'fixed': zlib.Z_FIXED}",
                "flushes = {'none': None, 'sync': zlib.Z_SYNC_FLUSH, 'full': zlib.Z_FULL_FLUSH,",
                "  'partial': zlib.Z_PARTIAL_FLUSH, 'block': zlib.Z_BLOCK}",
                "for level in (0, 1, 6, 9):",
                "  for wbits in (16 + 9, 16 + 12, 16 + 15):",
                "    for mem in (1, 8, 9):",
                "      for sname, s in strategies.items():",
                "        for fname, f in flushes.items():",
                "          if (mem != 8 or wbits != 31) and (fname != 'none' or sname != 'default'): continue",
                "          c = zlib.compressobj(level, zlib.DEFLATED, wbits, mem, s)",
                "          parts, step = [], len(data) // 5",
                "          for i in range(0, len(data), step):",
                "            parts.append(c.compress(data[i:i + step]))",
                "            if f is not None: parts.append(c.flush(f))",
                "          parts.append(c.flush())",
                "          name = 'l%d-w%d-m%d-%s-%s.gz' % (level, wbits, mem, sname, fname)",
                "          open(os.path.join(out, name), 'wb').write(b''.join(parts))");
        Path py = dir.resolve("compress.py");
        Files.writeString(py, script);
        run(List.of(python.toString(), py.toString(), input.toString(), out.toString()));
        List<Path> files;
        try (Stream<Path> s = Files.list(out)) {
            files = s.sorted().toList();
        }
        assertThat(files).hasSizeGreaterThan(50);
        for (Path f : files) {
            byte[] gz = Files.readAllBytes(f);
            try {
                RoundTrip.assertExact(gz).assertTokensExpandTo(data);
            } catch (AssertionError | IOException e) {
                throw new AssertionError(f.getFileName() + ": " + e.getMessage(), e);
            }
        }
    }

    @Test
    void pigzOutputRoundTripsBitExactly() throws Exception {
        Path pigz = requireProgram("pigz");
        for (String level : List.of("-1", "-6", "-9", "-11")) {
            byte[] gz = run(List.of(pigz.toString(), level, "-c", input.toString()));
            RoundTrip.assertExact(gz).assertTokensExpandTo(data);
        }
    }

    private static Path requireProgram(String name) {
        Optional<Path> found = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .map(p -> Path.of(p, name)).filter(Files::isExecutable).findFirst();
        assumeTrue(found.isPresent(), name + " is not installed on this machine: its round-trip test is skipped");
        return found.get();
    }

    private static byte[] run(List<String> cmd) throws Exception {
        Path stdout = Files.createTempFile(dir, "out", ".bin");
        Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectErrorStream(false).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", cmd).isTrue();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("%s exit status (%s)", cmd, err).isZero();
        return Files.readAllBytes(stdout);
    }
}
