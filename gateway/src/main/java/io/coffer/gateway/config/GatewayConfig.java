package io.coffer.gateway.config;

import io.coffer.gateway.crypto.NativeCrypto;
import io.coffer.sdk.crypto.ChunkCompressor;
import io.coffer.sdk.crypto.CompressionPolicy;
import io.coffer.sdk.key.DedupPolicy;
import io.coffer.sdk.layer.LayerModePolicy;
import io.coffer.keyserver.pki.SecretFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;

/**
 * The effective configuration. Precedence, lowest first: defaults, the config file ({@code key = value} lines,
 * {@code #} comments; an unknown key is an error), {@code COFFER_<KEY>} environment variables (secrets also from
 * {@code COFFER_<KEY>_FILE}; any other {@code COFFER_*} variable is an error, so a mistyped name cannot go unnoticed),
 * command-line flags. Booleans are {@code true} or {@code false}, nothing else.
 */
public final class GatewayConfig {
    /**
     * {@code COFFER_*} variables read before the configuration: by the {@code ./coffer} launcher (JVM and Maven
     * options) and by {@code serve}'s start (the native crypto provider's switch, {@link NativeCrypto#ENV}).
     */
    static final Set<String> LAUNCHER_VARIABLES = Set.of("COFFER_JAVA_OPTS", "COFFER_MVN_OPTS", NativeCrypto.ENV);
    private final Map<ConfigKey, String> values;
    private final Map<ConfigKey, String> sources;

    private GatewayConfig(Map<ConfigKey, String> values, Map<ConfigKey, String> sources) {
        this.values = values;
        this.sources = sources;
    }

    /**
     * @param file  the config file, or null
     * @param env   the environment (System.getenv() in production)
     * @param flags settings given on the command line, by key
     */
    public static GatewayConfig load(Path file, Map<String, String> env, Map<ConfigKey, String> flags) {
        Map<ConfigKey, String> values = new EnumMap<>(ConfigKey.class);
        Map<ConfigKey, String> sources = new EnumMap<>(ConfigKey.class);
        for (ConfigKey k : ConfigKey.values()) {
            if (k.defaultValue() != null) {
                values.put(k, k.defaultValue());
                sources.put(k, "default");
            }
        }
        if (file != null) {
            List<String> lines;
            try {
                lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read config file " + file, e);
            }
            int n = 0;
            for (String raw : lines) {
                n++;
                String line = raw.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int eq = line.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(file + ":" + n + ": expected key = value");
                }
                String key = line.substring(0, eq).strip();
                ConfigKey k = ConfigKey.of(key).orElseThrow(() -> new IllegalArgumentException(file + ": unknown key '"
                        + key + "'"));
                values.put(k, line.substring(eq + 1).strip());
                sources.put(k, "file");
            }
            String secret = values.keySet().stream().filter(ConfigKey::secret).map(ConfigKey::key).findFirst()
                    .orElse(null);
            if (secret != null) {
                try {
                    SecretFile.checkPrivate(file, "config file (it holds " + secret + ")");
                } catch (IOException e) {
                    throw new UncheckedIOException(e.getMessage(), e);
                }
            }
        }
        checkVariableNames(env);
        for (ConfigKey k : ConfigKey.values()) {
            String v = env.get(k.envName());
            String fileVar = env.get(k.envName() + "_FILE");
            if (fileVar != null) {
                try {
                    if (k.secret()) {
                        SecretFile.checkPrivate(Path.of(fileVar), k.envName() + "_FILE");
                    }
                    v = Files.readString(Path.of(fileVar), StandardCharsets.UTF_8).strip();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read " + k.envName() + "_FILE " + fileVar + ": "
                            + e.getMessage(), e);
                }
            }
            if (v != null) {
                values.put(k, v);
                sources.put(k, "env");
            }
        }
        for (Map.Entry<ConfigKey, String> f : flags.entrySet()) {
            if (f.getValue() != null) {
                values.put(f.getKey(), f.getValue());
                sources.put(f.getKey(), "flag");
            }
        }
        GatewayConfig c = new GatewayConfig(values, sources);
        c.validate();
        return c;
    }

    private static void checkVariableNames(Map<String, String> env) {
        Set<String> known = new HashSet<>(LAUNCHER_VARIABLES);
        for (ConfigKey k : ConfigKey.values()) {
            known.add(k.envName());
            known.add(k.envName() + "_FILE");
        }
        for (String name : new TreeSet<>(env.keySet())) {
            if (name.startsWith("COFFER_") && !known.contains(name)) {
                throw new IllegalArgumentException("unknown environment variable " + name
                        + " (not a configuration setting; see ./coffer config check --help)");
            }
        }
    }

    private void validate() {
        for (ConfigKey k : ConfigKey.values()) {
            if (isBoolean(k)) {
                boolValue(k);
            }
        }
        port(ConfigKey.PORT);
        port(ConfigKey.ADMIN_PORT);
        String backend = get(ConfigKey.BACKEND);
        if (!backend.equals("dir") && !backend.equals("s3")) {
            throw new IllegalArgumentException("backend must be dir or s3, got " + backend);
        }
        if (backend.equals("s3") && get(ConfigKey.S3_BUCKET) == null) {
            throw new IllegalArgumentException("backend s3 needs s3-bucket");
        }
        String format = get(ConfigKey.LOG_FORMAT);
        if (!format.equals("text") && !format.equals("json")) {
            throw new IllegalArgumentException("log-format must be text or json, got " + format);
        }
        if ((get(ConfigKey.TLS_CERT) == null) != (get(ConfigKey.TLS_KEY) == null)) {
            throw new IllegalArgumentException("tls-cert and tls-key must be given together");
        }
        if ((get(ConfigKey.ACCESS_KEY) == null) != (get(ConfigKey.SECRET_KEY) == null)) {
            throw new IllegalArgumentException("access-key and secret-key must be given together");
        }
        validateKeyServer();
        dedupPolicy();
        compressionPolicy();
        layerModePolicy();
        multipartExpiry();
        gcInterval();
        gcGrace();
        lifecycleInterval();
        lifecycleRate();
        porSettings();
        for (ConfigKey k : List.of(ConfigKey.KEYSERVER_TIMEOUT_MS, ConfigKey.KEYSERVER_PAUSE_MS, ConfigKey.IDLE_TIMEOUT_SECONDS, ConfigKey.WORKER_THREADS, ConfigKey.MAX_HEADER_SIZE,
                ConfigKey.MAX_INITIAL_LINE_LENGTH, ConfigKey.BODY_BUFFER_BYTES, ConfigKey.SHUTDOWN_GRACE_SECONDS)) {
            if (intValue(k) < 1) {
                throw new IllegalArgumentException(k.key() + " must be positive");
            }
        }
    }

    private void validateKeyServer() {
        String transport = get(ConfigKey.KEYSERVER_TRANSPORT);
        if (!transport.equals("v1") && !transport.equals("v2")) {
            throw new IllegalArgumentException("keyserver-transport must be v1 or v2, got " + transport);
        }
        if (!remoteKeyServer()) {
            return;
        }
        keyServerPort();
        if (get(ConfigKey.KEYSERVER_DIR) == null) {
            for (ConfigKey k : List.of(ConfigKey.KEYSERVER_CERT, ConfigKey.KEYSERVER_KEY, ConfigKey.KEYSERVER_CA,
                    ConfigKey.KEYSERVER_PUBLIC_KEY)) {
                if (get(k) == null) {
                    throw new IllegalArgumentException("keyserver " + get(ConfigKey.KEYSERVER) + " needs keyserver-dir"
                            + " or keyserver-cert, keyserver-key, keyserver-ca and keyserver-public-key; "
                            + k.key() + " is missing");
                }
            }
        }
    }

    /** The engine's DedupPolicy: {@code dedup-min-size} and the {@code dedup-exclude} entries. */
    public DedupPolicy dedupPolicy() {
        int minSize = intValue(ConfigKey.DEDUP_MIN_SIZE);
        if (minSize < 0) {
            throw new IllegalArgumentException("dedup-min-size must be 0 or more, got " + minSize);
        }
        List<DedupPolicy.Exclusion> exclusions = new ArrayList<>();
        String v = get(ConfigKey.DEDUP_EXCLUDE);
        for (String entry : v == null || v.isBlank() ? new String[0] : v.split(",")) {
            String e = entry.strip();
            int slash = e.indexOf('/');
            String bucket = slash < 0 ? e : e.substring(0, slash);
            if (bucket.isEmpty()) {
                throw new IllegalArgumentException("dedup-exclude entries must be BUCKET or BUCKET/PREFIX, got '"
                        + entry + "'");
            }
            exclusions.add(new DedupPolicy.Exclusion(bucket, slash < 0 ? "" : e.substring(slash + 1)));
        }
        return new DedupPolicy(minSize, exclusions);
    }

    /**
     * The engine's LayerModePolicy: {@code layer-mode}, {@code layer-sub-chunk-average}, {@code layer-threshold},
     * {@code layer-recipes}.
     */
    public LayerModePolicy layerModePolicy() {
        return LayerModePolicy.parse(get(ConfigKey.LAYER_MODE), intValue(ConfigKey.LAYER_SUB_CHUNK_AVERAGE),
                intValue(ConfigKey.LAYER_THRESHOLD)).withZlibRecipes(boolValue(ConfigKey.LAYER_RECIPES));
    }

    /** The engine's CompressionPolicy: {@code compression}, {@code compression-level}, {@code compression-exclude}. */
    public CompressionPolicy compressionPolicy() {
        List<CompressionPolicy.Exclusion> exclusions = new ArrayList<>();
        String v = get(ConfigKey.COMPRESSION_EXCLUDE);
        for (String entry : v == null || v.isBlank() ? new String[0] : v.split(",")) {
            String e = entry.strip();
            int slash = e.indexOf('/');
            String bucket = slash < 0 ? e : e.substring(0, slash);
            if (bucket.isEmpty()) {
                throw new IllegalArgumentException("compression-exclude entries must be BUCKET or BUCKET/PREFIX, got '"
                        + entry + "'");
            }
            exclusions.add(new CompressionPolicy.Exclusion(bucket, slash < 0 ? "" : e.substring(slash + 1)));
        }
        int level = intValue(ConfigKey.COMPRESSION_LEVEL);
        if (level < ChunkCompressor.MIN_LEVEL || level > ChunkCompressor.MAX_LEVEL || level == 0) {
            throw new IllegalArgumentException("compression-level must be between " + ChunkCompressor.MIN_LEVEL
                    + " and " + ChunkCompressor.MAX_LEVEL + " and not 0, got " + level);
        }
        return new CompressionPolicy(boolValue(ConfigKey.COMPRESSION), level, exclusions);
    }

    /** The proof-of-retrievability settings: {@code por}, {@code por-key-file}, {@code por-audit-interval} ... */
    public PorSettings porSettings() {
        return PorSettings.of(this);
    }

    /** How old an unfinished multipart upload gets before {@code serve} aborts it; {@link Duration#ZERO}: never. */
    public Duration multipartExpiry() {
        return DurationSetting.parse(ConfigKey.MULTIPART_EXPIRY, get(ConfigKey.MULTIPART_EXPIRY));
    }

    /** How often {@code serve} collects garbage; zero: never. */
    public Duration gcInterval() {
        return DurationSetting.parse(ConfigKey.GC_INTERVAL, get(ConfigKey.GC_INTERVAL));
    }

    /** How often {@code serve} applies buckets' lifecycle rules; zero: never. */
    public Duration lifecycleInterval() {
        return DurationSetting.parse(ConfigKey.LIFECYCLE_INTERVAL, get(ConfigKey.LIFECYCLE_INTERVAL));
    }

    /** The lifecycle sweep's bound on deletions and aborts per second: a positive, finite number. */
    public double lifecycleRate() {
        String v = get(ConfigKey.LIFECYCLE_RATE);
        double rate;
        try {
            rate = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            rate = Double.NaN;
        }
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("lifecycle-rate must be a positive number of deletions per second,"
                    + " got '" + v + "'");
        }
        return rate;
    }

    /** Garbage collection's grace period: positive (with none, a collection could delete what a write reuses). */
    public Duration gcGrace() {
        Duration grace = DurationSetting.parse(ConfigKey.GC_GRACE, get(ConfigKey.GC_GRACE));
        if (grace.isZero()) {
            throw new IllegalArgumentException("gc-grace must be a positive duration such as 1h (writes in flight"
                    + " rely on it), got '" + get(ConfigKey.GC_GRACE) + "'");
        }
        return grace;
    }

    /** True when chunk keys come from a remote key server rather than the embedded OPRF. */
    public boolean remoteKeyServer() {
        return !get(ConfigKey.KEYSERVER).equals("embedded");
    }

    /** The key server's host, from {@code keyserver = HOST:PORT}. */
    public String keyServerHost() {
        String v = get(ConfigKey.KEYSERVER);
        return v.substring(0, v.lastIndexOf(':'));
    }

    /** The key server's HTTPS port, from {@code keyserver = HOST:PORT}. */
    public int keyServerPort() {
        String v = get(ConfigKey.KEYSERVER);
        int colon = v.lastIndexOf(':');
        int port = -1;
        if (colon > 0) {
            try {
                port = Integer.parseInt(v.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("keyserver must be embedded or HOST:PORT, got " + v);
        }
        return port;
    }

    private int port(ConfigKey k) {
        int p = intValue(k);
        if (p < 0 || p > 65535) {
            throw new IllegalArgumentException(k.key() + " must be 0..65535, got " + p);
        }
        return p;
    }

    /** The value, or null when unset and without default. */
    public String get(ConfigKey k) {
        return values.get(k);
    }

    public int intValue(ConfigKey k) {
        String v = get(k);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(k.key() + " must be an integer, got " + v);
        }
    }

    /** A boolean setting: {@code true} or {@code false} (any case); anything else is an error naming the key. */
    public boolean boolValue(ConfigKey k) {
        String v = get(k);
        if ("true".equalsIgnoreCase(v)) {
            return true;
        }
        if ("false".equalsIgnoreCase(v)) {
            return false;
        }
        throw new IllegalArgumentException(k.key() + " (" + k.envName() + ") must be true or false, got '" + v + "'");
    }

    /** A setting whose default is a boolean is a boolean setting. */
    private static boolean isBoolean(ConfigKey k) {
        return "true".equals(k.defaultValue()) || "false".equals(k.defaultValue());
    }

    /** The admin port's address: {@code admin-bind}, else {@code bind}. */
    public String adminBind() {
        String v = get(ConfigKey.ADMIN_BIND);
        return v != null ? v : get(ConfigKey.BIND);
    }

    public Path dataDir() {
        return Path.of(get(ConfigKey.DATA));
    }

    /** The effective configuration, one {@code key = value  # source} line each, secrets shown as {@code <redacted>}. */
    public String describe() {
        StringJoiner j = new StringJoiner("\n", "", "\n");
        for (ConfigKey k : ConfigKey.values()) {
            String v = values.get(k);
            String shown = v == null ? "" : k.secret() ? "<redacted>" : v;
            j.add(k.key() + " = " + shown + (v == null ? "" : "  # " + sources.get(k)));
        }
        return j.toString();
    }

    @Override
    public String toString() {
        return describe();
    }
}
