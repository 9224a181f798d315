package io.coffer.gateway.cli;

import io.coffer.gateway.config.ConfigKey;
import io.coffer.gateway.config.GatewayConfig;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The configuration flags every verb accepts; a flag overrides COFFER_* variables, which override the file. */
final class ConfigOptions {
    @Option(names = "--config", paramLabel = "FILE", description = "Config file of key = value lines.")
    Path configFile;

    @Option(names = "--data", paramLabel = "DIR", description = "Data directory (default ./coffer-data).")
    String data;

    @Option(names = "--master-key", paramLabel = "FILE",
            description = "Master key file (default DATA/master.key); every gateway of a store is given the same one.")
    String masterKey;

    @Option(names = "--backend", paramLabel = "dir|s3", description = "Where packs are stored (default dir).")
    String backend;

    @Option(names = "--s3-endpoint", paramLabel = "URL", description = "Backend S3 endpoint (default AWS).")
    String s3Endpoint;

    @Option(names = "--s3-bucket", paramLabel = "NAME", description = "Backend S3 bucket.")
    String s3Bucket;

    @Option(names = "--s3-region", paramLabel = "REGION", description = "Backend S3 region (default us-east-1).")
    String s3Region;

    @Option(names = "--s3-path-style", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            description = "Path-style addressing for the backend.")
    String s3PathStyle;

    @Option(names = "--s3-sign-payload", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            description = "Sign upload bodies (SHA-256) over plain http, for backends that refuse UNSIGNED-PAYLOAD.")
    String s3SignPayload;

    @Option(names = "--metadata", paramLabel = "PATH|JDBC-URL",
            description = "SQLite file or jdbc:postgresql: URL (user and password from COFFER_METADATA_USER/PASSWORD).")
    String metadata;

    @Option(names = "--keyserver", paramLabel = "embedded|HOST:PORT",
            description = "Chunk keys: embedded OPRF under the master key (default) or a remote key server.")
    String keyserver;

    @Option(names = "--keyserver-dir", paramLabel = "DIR",
            description = "Key-server directory (coffer keyserver init): client files unless given one by one.")
    String keyserverDir;

    @Option(names = "--keyserver-client", paramLabel = "NAME",
            description = "Client certificate name in --keyserver-dir (default gateway).")
    String keyserverClient;

    @Option(names = "--keyserver-cert", paramLabel = "PEM", description = "Key-server client certificate.")
    String keyserverCert;

    @Option(names = "--keyserver-key", paramLabel = "PEM", description = "Key-server client private key (PKCS#8).")
    String keyserverKey;

    @Option(names = "--keyserver-ca", paramLabel = "PEM", description = "CA certificate of the key server.")
    String keyserverCa;

    @Option(names = "--keyserver-public-key", paramLabel = "PEM",
            description = "The key server's OPRF public key (oprf/KEYID.pub); answers are verified against it.")
    String keyserverPublicKey;

    @Option(names = "--keyserver-transport", paramLabel = "v1|v2",
            description = "v1: HTTPS per query; v2: UDP datagrams after a TLS handshake (default v2).")
    String keyserverTransport;

    @Option(names = "--por", paramLabel = "off|embedded|HOST:PORT",
            description = "Proofs of retrievability for packs: off (default), an in-process server under DATA/por/,"
                    + " or a coffer por-server.")
    String por;

    @Option(names = "--por-key-file", paramLabel = "FILE",
            description = "The session key of the remote PoR server (its DIR/session.key).")
    String porKeyFile;

    Map<ConfigKey, String> flags() {
        Map<ConfigKey, String> m = new EnumMap<>(ConfigKey.class);
        put(m, ConfigKey.DATA, data);
        put(m, ConfigKey.MASTER_KEY, masterKey);
        put(m, ConfigKey.BACKEND, backend);
        put(m, ConfigKey.S3_ENDPOINT, s3Endpoint);
        put(m, ConfigKey.S3_BUCKET, s3Bucket);
        put(m, ConfigKey.S3_REGION, s3Region);
        put(m, ConfigKey.S3_PATH_STYLE, s3PathStyle);
        put(m, ConfigKey.S3_SIGN_PAYLOAD, s3SignPayload);
        put(m, ConfigKey.METADATA, metadata);
        put(m, ConfigKey.KEYSERVER, keyserver);
        put(m, ConfigKey.KEYSERVER_DIR, keyserverDir);
        put(m, ConfigKey.KEYSERVER_CLIENT, keyserverClient);
        put(m, ConfigKey.KEYSERVER_CERT, keyserverCert);
        put(m, ConfigKey.KEYSERVER_KEY, keyserverKey);
        put(m, ConfigKey.KEYSERVER_CA, keyserverCa);
        put(m, ConfigKey.KEYSERVER_PUBLIC_KEY, keyserverPublicKey);
        put(m, ConfigKey.KEYSERVER_TRANSPORT, keyserverTransport);
        put(m, ConfigKey.POR, por);
        put(m, ConfigKey.POR_KEY_FILE, porKeyFile);
        return m;
    }

    static void put(Map<ConfigKey, String> m, ConfigKey k, Object v) {
        if (v != null) {
            m.put(k, v.toString());
        }
    }

    GatewayConfig load(Map<ConfigKey, String> extra) {
        Map<ConfigKey, String> all = flags();
        all.putAll(extra);
        return GatewayConfig.load(configFile, System.getenv(), all);
    }
}
