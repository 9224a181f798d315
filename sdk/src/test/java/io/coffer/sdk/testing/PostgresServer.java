package io.coffer.sdk.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for tests, started once per JVM with no manual setup.
 *
 * <p>{@link #get()} starts it lazily on first use: it finds the server binaries ({@code initdb}, and {@code pg_ctl}
 * or {@code postgres}) on {@code PATH} or under {@code /usr/lib/postgresql/<version>/bin} (newest version first),
 * runs {@code initdb} into a fresh temporary directory (trust authentication, superuser {@value #USER}, UTF-8,
 * C locale) and starts the server listening on 127.0.0.1 at a free port, with its unix socket in that directory and
 * {@code fsync} off (test data need not survive a crash). PostgreSQL refuses to run as root, and test JVMs often do:
 * when {@code id -u} is 0 the binaries run through {@code runuser -u postgres --} (the user the Debian packages
 * create; if it is missing a system user {@code coffer-pg} is created with {@code useradd -r -M}) and the temporary
 * directory is handed to that user. A shutdown hook stops the server and deletes the directory.
 *
 * <p>If no PostgreSQL binaries can be found, {@link #get()} throws an {@link IllegalStateException} saying so, which
 * fails the test: the PostgreSQL tests are never skipped silently.
 *
 * <p>Tests should use a database of their own ({@link #createDatabase}) so that they are independent of each other.
 */
public final class PostgresServer {
    /** The superuser initdb creates; trust authentication accepts it with any password. */
    public static final String USER = "coffer";

    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final long START_TIMEOUT_SECONDS = 60;

    private static PostgresServer instance;

    private final Path binDir;
    private final Path baseDir;
    private final Path dataDir;
    private final int port;
    private final List<String> runAs;

    private PostgresServer(Path binDir, Path baseDir, int port, List<String> runAs) {
        this.binDir = binDir;
        this.baseDir = baseDir;
        this.dataDir = baseDir.resolve("data");
        this.port = port;
        this.runAs = runAs;
    }

    /** The server of this JVM, started on first call. */
    public static synchronized PostgresServer get() {
        if (instance == null) {
            instance = start();
        }
        return instance;
    }

    /** JDBC URL of the {@code postgres} maintenance database. */
    public String jdbcUrl() {
        return jdbcUrl("postgres");
    }

    /** JDBC URL of database {@code name} on this server. */
    public String jdbcUrl(String name) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + name;
    }

    public String user() {
        return USER;
    }

    /** Any password works (trust authentication); this one is as good as another. */
    public String password() {
        return "";
    }

    public int port() {
        return port;
    }

    /**
     * Creates a fresh, empty database and returns its JDBC URL. Names are lower-case identifiers; a database of that
     * name left over from earlier in the same JVM is dropped first.
     */
    public String createDatabase(String name) {
        if (!DATABASE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("database names must match " + DATABASE_NAME + ": " + name);
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl(), USER, password());
             Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name);
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + name, e);
        }
        return jdbcUrl(name);
    }

    // ---- start and stop

    private static PostgresServer start() {
        Path bin = findBinaries().orElseThrow(() -> new IllegalStateException(
                "PostgreSQL server binaries (initdb and pg_ctl or postgres) were found neither on PATH nor under "
                        + "/usr/lib/postgresql/*/bin; install PostgreSQL (Debian: apt-get install postgresql) "
                        + "to run the PostgreSQL metadata tests"));
        try {
            Path base = Files.createTempDirectory("coffer-pg");
            List<String> runAs = List.of();
            if (isRoot()) {
                String user = serviceUser();
                chown(base, user);
                runAs = List.of("runuser", "-u", user, "--");
            }
            IOException last = null;
            for (int attempt = 0; attempt < 3; attempt++) {
                PostgresServer server = new PostgresServer(bin, base, freePort(), runAs);
                try {
                    if (attempt == 0) {
                        server.initdb();
                    }
                    server.startServer();
                    Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "postgres-stop"));
                    return server;
                } catch (IOException e) {
                    // most likely the port was taken between choosing it and binding it: try another
                    last = e;
                }
            }
            throw new IllegalStateException("cannot start PostgreSQL from " + bin, last);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start PostgreSQL from " + bin, e);
        }
    }

    private void initdb() throws IOException {
        exec(List.of(binDir.resolve("initdb").toString(), "-D", dataDir.toString(), "-U", USER, "--auth=trust",
                "--encoding=UTF8", "--locale=C", "--no-sync"), 120);
    }

    private void startServer() throws IOException {
        Path log = baseDir.resolve("postgres.log");
        String options = "-c listen_addresses=127.0.0.1 -p " + port + " -k " + baseDir
                + " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200";
        Path pgCtl = binDir.resolve("pg_ctl");
        if (Files.isExecutable(pgCtl)) {
            exec(List.of(pgCtl.toString(), "-D", dataDir.toString(), "-l", log.toString(), "-o", options, "-w",
                    "-t", Long.toString(START_TIMEOUT_SECONDS), "start"), START_TIMEOUT_SECONDS + 10);
        } else {
            List<String> command = new ArrayList<>(runAs);
            command.add(binDir.resolve("postgres").toString());
            command.addAll(List.of("-D", dataDir.toString()));
            command.addAll(Arrays.asList(options.split(" ")));
            new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        }
        awaitConnection(log);
    }

    private void awaitConnection(Path log) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            try (Connection c = DriverManager.getConnection(jdbcUrl(), USER, password())) {
                return;
            } catch (SQLException e) {
                last = e;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted waiting for PostgreSQL", e);
            }
        }
        throw new IOException("PostgreSQL did not accept connections on port " + port + "; log:\n" + tail(log), last);
    }

    private void stop() {
        try {
            Path pgCtl = binDir.resolve("pg_ctl");
            if (Files.isExecutable(pgCtl)) {
                exec(List.of(pgCtl.toString(), "-D", dataDir.toString(), "-m", "immediate", "-w", "stop"), 30);
            } else {
                Path pidFile = dataDir.resolve("postmaster.pid");
                if (Files.exists(pidFile)) {
                    String pid = Files.readAllLines(pidFile).get(0).strip();
                    new ProcessBuilder("kill", "-QUIT", pid).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
                    for (int i = 0; i < 100 && Files.exists(pidFile); i++) {
                        Thread.sleep(100);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("stopping the test PostgreSQL failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            deleteRecursively(baseDir);
        }
    }

    // ---- helpers

    private void exec(List<String> args, long timeoutSeconds) throws IOException {
        List<String> command = new ArrayList<>(runAs);
        command.addAll(args);
        Process process = new ProcessBuilder(command).directory(baseDir.toFile()).redirectErrorStream(true).start();
        // the server started by pg_ctl inherits no pipe of ours (its output goes to the log), so this read ends
        byte[] output = process.getInputStream().readAllBytes();
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", args) + " did not finish in " + timeoutSeconds + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted running " + args.get(0), e);
        }
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed with exit code " + process.exitValue() + ":\n"
                    + new String(output, StandardCharsets.UTF_8) + "\n" + tail(baseDir.resolve("postgres.log")));
        }
    }

    private static String tail(Path log) {
        try {
            if (!Files.exists(log)) {
                return "(no log)";
            }
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /** A directory holding initdb and pg_ctl (or postgres): PATH first, then the newest Debian-style install. */
    static Optional<Path> findBinaries() {
        List<Path> candidates = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty()) {
                    Path initdb = Path.of(dir).resolve("initdb");
                    if (Files.isExecutable(initdb)) {
                        // follow a symbolic link so pg_ctl and postgres are looked up beside the real initdb
                        try {
                            candidates.add(initdb.toRealPath().getParent());
                        } catch (IOException e) {
                            candidates.add(Path.of(dir));
                        }
                    }
                }
            }
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                versions.sorted(Comparator.comparing(PostgresServer::versionOf).reversed())
                        .map(v -> v.resolve("bin"))
                        .forEach(candidates::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return candidates.stream()
                .filter(dir -> Files.isExecutable(dir.resolve("initdb")))
                .filter(dir -> Files.isExecutable(dir.resolve("pg_ctl")) || Files.isExecutable(dir.resolve("postgres")))
                .findFirst();
    }

    private static int versionOf(Path dir) {
        try {
            return Integer.parseInt(dir.getFileName().toString().replaceAll("\\..*", ""));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean isRoot() throws IOException {
        return "0".equals(run("id", "-u").strip());
    }

    /** The user to run the server as when the JVM is root: postgres, else a dedicated system user. */
    private static String serviceUser() throws IOException {
        if (userExists("postgres")) {
            return "postgres";
        }
        if (!userExists("coffer-pg")) {
            run("useradd", "-r", "-M", "-s", "/usr/sbin/nologin", "coffer-pg");
        }
        return "coffer-pg";
    }

    private static boolean userExists(String user) throws IOException {
        Process process = new ProcessBuilder("id", "-u", user).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        try {
            return process.waitFor() == 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static String run(String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (process.waitFor() != 0) {
                throw new IOException(String.join(" ", command) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return output;
    }

    private static void chown(Path dir, String user) throws IOException {
        UserPrincipalLookupService lookup = dir.getFileSystem().getUserPrincipalLookupService();
        UserPrincipal owner = lookup.lookupPrincipalByName(user);
        PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
        view.setOwner(owner);
        try {
            GroupPrincipal group = lookup.lookupPrincipalByGroupName(user);
            view.setGroup(group);
        } catch (IOException e) {
            // no group of that name: the owner alone is enough for the server
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort: a leftover temporary directory harms nobody
                }
            });
        } catch (IOException e) {
            // best effort, as above
        }
    }

    @Override
    public String toString() {
        return "PostgresServer[127.0.0.1:" + port + ", " + binDir + "]";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
