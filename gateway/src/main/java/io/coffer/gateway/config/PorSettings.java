package io.coffer.gateway.config;

import io.coffer.por.net.ServerParameters;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The proof-of-retrievability settings ({@code por}, {@code por-key-file}, {@code por-audit-interval}, {@code por-k},
 * {@code por-max-k}, {@code por-block-size}, {@code por-batch}), checked: {@code por} is {@code off},
 * {@code embedded} or HOST:PORT; a remote server needs its key file; the embedded server's first-start parameters
 * and its largest k are in the PoR server's bounds.
 *
 * @param mode          off, embedded or remote
 * @param host          the remote server's host (remote only)
 * @param port          the remote server's port (remote only)
 * @param keyFile       the remote server's session key file (remote only)
 * @param auditInterval the time between scheduled audits; {@link Duration#ZERO}: none
 * @param k             the embedded server's initial capacity exponent (first start)
 * @param maxK          the largest capacity exponent the embedded server grows to
 * @param blockBytes    the embedded server's block size (first start)
 * @param batch         the embedded server's write batching exponent b, 2^b blocks per H add (first start)
 */
public record PorSettings(Mode mode, String host, int port, Path keyFile, Duration auditInterval, int k,
                          int maxK, int blockBytes, int batch) {
    /** Where the PoR server runs, if anywhere. */
    public enum Mode { OFF, EMBEDDED, REMOTE }

    /** The data directory's PoR folder: the embedded server and the client-state backup live under it. */
    public static final String DIRECTORY = "por";

    /** Reads and checks the PoR settings of a configuration. */
    public static PorSettings of(GatewayConfig c) {
        String por = c.get(ConfigKey.POR).strip();
        Duration interval = interval(c.get(ConfigKey.POR_AUDIT_INTERVAL));
        int k = c.intValue(ConfigKey.POR_K);
        int blockBytes = c.intValue(ConfigKey.POR_BLOCK_SIZE);
        int batch = c.intValue(ConfigKey.POR_BATCH);
        try {
            new ServerParameters(k, batch, blockBytes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("por-k, por-block-size and por-batch: " + e.getMessage(), e);
        }
        int maxK = c.intValue(ConfigKey.POR_MAX_K);
        if (maxK < 1 || maxK > ServerParameters.MAX_K) {
            throw new IllegalArgumentException("por-max-k must be in [1, " + ServerParameters.MAX_K + "]: " + maxK);
        }
        if (por.equals("off")) {
            return new PorSettings(Mode.OFF, null, 0, null, interval, k, maxK, blockBytes, batch);
        }
        if (por.equals("embedded")) {
            return new PorSettings(Mode.EMBEDDED, null, 0, null, interval, k, maxK, blockBytes, batch);
        }
        int colon = por.lastIndexOf(':');
        int port = -1;
        if (colon > 0) {
            try {
                port = Integer.parseInt(por.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("por must be off, embedded or HOST:PORT, got '" + por + "'");
        }
        String keyFile = c.get(ConfigKey.POR_KEY_FILE);
        if (keyFile == null || keyFile.isBlank()) {
            throw new IllegalArgumentException("por " + por + " needs por-key-file (the PoR server's session key,"
                    + " DIR/session.key of coffer por-server)");
        }
        return new PorSettings(Mode.REMOTE, por.substring(0, colon), port, Path.of(keyFile), interval, k,
                maxK, blockBytes, batch);
    }

    /** An audit interval: 0 (no scheduled audits) or a duration, as {@link DurationSetting} reads it. */
    static Duration interval(String v) {
        return DurationSetting.parse(ConfigKey.POR_AUDIT_INTERVAL, v);
    }

    public boolean enabled() {
        return mode != Mode.OFF;
    }

    /** Where the embedded server keeps U, C and H: {@code DATA/por/server}. */
    public static Path serverDirectory(Path dataDir) {
        return dataDir.resolve(DIRECTORY).resolve("server");
    }

    /** The PoR client state's backup file: {@code DATA/por/client.state}. */
    public static Path clientStateBackup(Path dataDir) {
        return dataDir.resolve(DIRECTORY).resolve("client.state");
    }

    /** What {@code serve}'s banner and the audit verbs print: {@code embedded (DIR)} or {@code HOST:PORT}. */
    public String describe(Path dataDir) {
        return switch (mode) {
            case OFF -> "off";
            case EMBEDDED -> "embedded (" + serverDirectory(dataDir).toAbsolutePath() + ")";
            case REMOTE -> host + ":" + port;
        };
    }
}
