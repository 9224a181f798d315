package io.coffer.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.coffer.gateway.config.ConfigKey;
import io.coffer.gateway.config.GatewayConfig;
import io.coffer.sdk.Coffer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CofferCommandTest {
    @TempDir
    Path dir;

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cl = CofferCommand.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(out));
        int rc = cl.execute(args);
        return rc + "\n" + out;
    }

    @Test
    void keyserverVerbInitialisesAKeyServerDirectoryWithPrivateKeyFiles() throws Exception {
        Path ks = dir.resolve("ks");
        assertThat(CofferCommand.execute("keyserver", "init", ks.toString())).isZero();
        try (var files = Files.walk(ks)) {
            List<Path> keys = files.filter(f -> f.getFileName().toString().endsWith(".key")
                    || f.getFileName().toString().contains("private")).toList();
            assertThat(keys).isNotEmpty();
            for (Path k : keys) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(k)))
                        .as(k.toString()).isEqualTo("rw-------");
            }
        }
        assertThat(CofferCommand.execute("keyserver", "no-such-verb")).isEqualTo(2);
    }

    @Test
    void configCheckPrintsEffectiveValuesWithSecretsRedacted() throws Exception {
        Path file = dir.resolve("coffer.conf");
        Files.writeString(file, "# test\nport = 9100\nsecret-key = hunter2\naccess-key = AK\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(run("config", "check", "--config", file.toString(), "--data", dir.toString()))
                .as("a config file holding a secret must be private").startsWith("2\n")
                .contains("config file (it holds secret-key) " + file).contains("chmod 600").doesNotContain("hunter2");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        String out = run("config", "check", "--config", file.toString(), "--data", dir.toString());
        assertThat(out).startsWith("0\n").contains("port = 9100  # file").contains("secret-key = <redacted>")
                .doesNotContain("hunter2").contains("data = " + dir + "  # flag");
    }

    @Test
    void precedenceIsFileThenEnvThenFlags() throws Exception {
        Path file = dir.resolve("c.conf");
        Files.writeString(file, "port = 1\nbind = 10.0.0.1\nregion = eu-west-1\n");
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "from-file\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        GatewayConfig c = GatewayConfig.load(file, Map.of("COFFER_PORT", "2", "COFFER_BIND", "10.0.0.2",
                "COFFER_SECRET_KEY_FILE", secret.toString(), "COFFER_ACCESS_KEY", "AK"), Map.of(ConfigKey.PORT, "3"));
        assertThat(c.get(ConfigKey.PORT)).isEqualTo("3");
        assertThat(c.get(ConfigKey.BIND)).isEqualTo("10.0.0.2");
        assertThat(c.get(ConfigKey.REGION)).isEqualTo("eu-west-1");
        assertThat(c.get(ConfigKey.SECRET_KEY)).isEqualTo("from-file");
    }

    @Test
    void unknownConfigFileKeyIsAnError() throws Exception {
        Path file = dir.resolve("bad.conf");
        Files.writeString(file, "prot = 9000\n");
        assertThatThrownBy(() -> GatewayConfig.load(file, Map.of(), Map.of()))
                .hasMessageContaining("unknown key 'prot'");
    }

    @Test
    void everyVerbHasHelp() {
        for (String verb : new String[] {"serve", "fsck", "gc", "reindex", "stats"}) {
            assertThat(run(verb, "--help")).as(verb).startsWith("0\n").contains("Usage: coffer " + verb);
        }
        assertThat(run("config", "check", "--help")).contains("Usage: coffer config check");
    }

    @Test
    void keyServerSettingsComeFromFlagsAndEnvironmentAndShowInConfigCheck() {
        String out = run("config", "check", "--data", dir.toString(), "--keyserver", "ks.example:8443",
                "--keyserver-dir", dir.resolve("ks").toString(), "--keyserver-transport", "v1");
        assertThat(out).startsWith("0\n").contains("keyserver = ks.example:8443  # flag")
                .contains("keyserver-dir = " + dir.resolve("ks") + "  # flag")
                .contains("keyserver-transport = v1  # flag").contains("keyserver-client = gateway  # default");
        GatewayConfig c = GatewayConfig.load(null, Map.of("COFFER_KEYSERVER", "10.0.0.5:9443",
                "COFFER_KEYSERVER_CERT", "c.pem", "COFFER_KEYSERVER_KEY", "k.pem", "COFFER_KEYSERVER_CA", "ca.pem",
                "COFFER_KEYSERVER_PUBLIC_KEY", "oprf.pub"), Map.of());
        assertThat(c.remoteKeyServer()).isTrue();
        assertThat(c.keyServerHost()).isEqualTo("10.0.0.5");
        assertThat(c.keyServerPort()).isEqualTo(9443);
        assertThat(GatewayConfig.load(null, Map.of(), Map.of()).remoteKeyServer()).as("embedded by default")
                .isFalse();
    }

    @Test
    void remoteKeyServerSettingsAreValidated() {
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_KEYSERVER", "ks:8443"), Map.of()))
                .hasMessageContaining("needs keyserver-dir or keyserver-cert");
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_KEYSERVER", "ks", "COFFER_KEYSERVER_DIR",
                "/ks"), Map.of())).hasMessageContaining("embedded or HOST:PORT");
        assertThatThrownBy(() -> GatewayConfig.load(null, Map.of("COFFER_KEYSERVER_TRANSPORT", "v3"), Map.of()))
                .hasMessageContaining("v1 or v2");
    }

    @Test
    void helpListsTheKeyServerVerb() {
        assertThat(run("--help")).startsWith("0\n").contains("keyserver").contains("serve").contains("fsck");
    }

    @Test
    void helpVerbPrintsThatVerbsHelpAndAnUnknownVerbIsAnError() throws Exception {
        CofferProcess.Result serve = CofferProcess.run(dir, Map.of(), "help", "serve");
        assertThat(serve.exitCode()).isZero();
        assertThat(serve.out()).contains("Usage: coffer serve").contains("--dedup-exclude");
        CofferProcess.Result unknown = CofferProcess.run(dir, Map.of(), "help", "no-such-verb");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("no-such-verb");
    }

    /** The launcher's own help lists every verb of the command line (and its own, test) without building anything. */
    @Test
    void launcherHelpListsEveryVerbAndHelpOfAnUnknownVerbExitsTwo() throws Exception {
        ScriptResult help = launcher("help");
        assertThat(help.exitCode).isZero();
        for (String verb : CofferCommand.commandLine().getSubcommands().keySet()) {
            if (!verb.equals("help")) {
                assertThat(help.out).as(verb).containsPattern("(?m)^  " + verb + " ");
            }
        }
        assertThat(help.out).containsPattern("(?m)^  test ");
        Matcher helpable = Pattern.compile("java_verbs=\"([^\"]*)\"")
                .matcher(Files.readString(launcherScript()));
        assertThat(helpable.find()).as("java_verbs in ./coffer").isTrue();
        Set<String> verbs = new TreeSet<>(CofferCommand.commandLine().getSubcommands().keySet());
        verbs.remove("help");
        assertThat(new TreeSet<>(List.of(helpable.group(1).split(" ")))).isEqualTo(verbs);
        assertThat(launcher("--help").out).isEqualTo(help.out);
        ScriptResult test = launcher("help", "test");
        assertThat(test.exitCode).isZero();
        assertThat(test.out).contains("usage: ./coffer test");
        ScriptResult unknown = launcher("help", "no-such-verb");
        assertThat(unknown.exitCode).isEqualTo(2);
        assertThat(unknown.err).contains("unknown verb 'no-such-verb'");
    }

    private record ScriptResult(int exitCode, String out, String err) {
    }

    private static Path launcherScript() {
        return Path.of("").toAbsolutePath().getParent().resolve("coffer");
    }

    /** Runs the repository's ./coffer with bash (only verbs that need no build). */
    private ScriptResult launcher(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", launcherScript().toString()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new ScriptResult(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void aNonBooleanOrAMistypedVariableStopsTheCommandNamingTheVariable() throws Exception {
        CofferProcess.Result yes = CofferProcess.run(dir, Map.of("COFFER_S3_PATH_STYLE", "yes"), "config", "check",
                "--data", dir.toString());
        assertThat(yes.exitCode()).isEqualTo(2);
        assertThat(yes.err()).contains("COFFER_S3_PATH_STYLE").contains("true or false");
        CofferProcess.Result typo = CofferProcess.run(dir, Map.of("COFFER_S3_PATHSTYLE", "true"), "config", "check",
                "--data", dir.toString());
        assertThat(typo.exitCode()).isEqualTo(2);
        assertThat(typo.err()).contains("unknown environment variable COFFER_S3_PATHSTYLE");
        CofferProcess.Result ok = CofferProcess.run(dir, Map.of("COFFER_JAVA_OPTS", "-Xmx1g",
                "COFFER_DEDUP_EXCLUDE", "private"), "config", "check", "--data", dir.toString());
        assertThat(ok.exitCode()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("dedup-exclude = private  # env").contains("dedup-min-size = 1024  # default");
    }

    @Test
    void fsckOnANewStoreIsClean() {
        Path data = newStore("data");
        String out = run("fsck", "--data", data.toString());
        assertThat(out).startsWith("0\n").contains("clean");
    }

    @Test
    void gcAndReindexReportWhatTheyDid() {
        String data = newStore("data").toString();
        assertThat(run("gc", "--data", data)).startsWith("0\n").contains("packs rewritten: 0");
        // reindex writes only into an empty store: a new store is one
        String reindex = run("reindex", "--data", newStore("fresh").toString());
        assertThat(reindex).startsWith("0\n").contains("buckets: 0").contains("objects: 0");
    }

    /** A store as {@code serve} leaves it on first start (the offline verbs never create one). */
    private Path newStore(String name) {
        Path data = dir.resolve(name);
        Coffer.builder().directory(data).build().close();
        return data;
    }
}
