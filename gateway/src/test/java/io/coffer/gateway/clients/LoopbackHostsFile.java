package io.coffer.gateway.clients;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Makes virtual-hosted names such as {@code bucket.s3.localhost} resolve to 127.0.0.1 in the test JVM.
 *
 * <p>Many systems resolve every {@code *.localhost} name to loopback (systemd-resolved, nss-myhostname); a plain
 * {@code /etc/hosts} resolver does not. gateway/pom.xml starts the test JVM with {@code -Djdk.net.hosts.file}, which
 * makes the JDK resolve names from that file alone, reading it on every lookup. This listener (registered in
 * META-INF/services, run before any test) fills the file with a copy of /etc/hosts, so every name that resolved
 * before still does, and {@link #resolveToLoopback} appends the names a test needs. Python clients get the same
 * through {@code clients/python/sitecustomize.py}.
 */
public final class LoopbackHostsFile implements LauncherSessionListener {
    private static final String PROPERTY = "jdk.net.hosts.file";

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        String file = System.getProperty(PROPERTY);
        if (file != null) {
            create(Path.of(file));
        }
    }

    /** Appends {@code names} as 127.0.0.1 and checks that the JVM now resolves each of them to loopback. */
    public static synchronized void resolveToLoopback(String... names) {
        String file = System.getProperty(PROPERTY);
        if (file != null) {
            Path hosts = Path.of(file);
            if (!Files.exists(hosts)) {
                create(hosts);
            }
            StringBuilder lines = new StringBuilder();
            for (String name : names) {
                lines.append("127.0.0.1 ").append(name).append('\n');
            }
            try {
                Files.writeString(hosts, lines, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot extend " + hosts, e);
            }
        }
        for (String name : names) {
            try {
                if (!InetAddress.getByName(name).isLoopbackAddress()) {
                    throw new IllegalStateException(name + " does not resolve to loopback");
                }
            } catch (UnknownHostException e) {
                throw new IllegalStateException(name + " does not resolve: run the tests through Maven (gateway/pom.xml"
                        + " sets -D" + PROPERTY + ") or on a system that resolves *.localhost to 127.0.0.1", e);
            }
        }
    }

    private static void create(Path hosts) {
        StringBuilder content = new StringBuilder("127.0.0.1 localhost\n");
        Path system = Path.of("/etc/hosts");
        try {
            if (Files.isReadable(system)) {
                content.append(Files.readString(system, StandardCharsets.UTF_8)).append('\n');
            }
            Files.createDirectories(hosts.toAbsolutePath().getParent());
            Files.writeString(hosts, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + hosts, e);
        }
    }
}
