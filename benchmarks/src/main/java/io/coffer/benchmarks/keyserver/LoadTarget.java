package io.coffer.benchmarks.keyserver;

import io.coffer.keyserver.client.Exchange;
import io.coffer.keyserver.client.KeyServerClient;
import io.coffer.keyserver.client.LocalEvaluator;
import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.OprfPrivateKey;
import io.coffer.keyserver.oprf.RsaOprfPrivateKey;
import io.coffer.keyserver.oprf.Suite;
import io.coffer.keyserver.pki.KeyServerDirectory;
import io.coffer.keyserver.server.KeyServer;
import io.coffer.keyserver.server.KeyServerInit;
import io.coffer.keyserver.wire.ProtocolLimits;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;

/** One key: a directory, the server serving it, and what clients need. */
final class LoadTarget implements AutoCloseable {
    final String name;
    final int bits;
    final KeyServerDirectory dir;
    final OprfPrivateKey key;
    final Suite suite;
    final KeyId keyId;
    final int elementLength;
    final KeyServer server;
    final Integer workers;

    private LoadTarget(String name, int bits, KeyServerDirectory dir, OprfPrivateKey key, KeyServer server, Integer workers) {
        this.name = name;
        this.bits = bits;
        this.dir = dir;
        this.key = key;
        this.suite = key.publicKey().defaultSuite();
        this.keyId = key.keyId();
        this.elementLength = key instanceof RsaOprfPrivateKey ? ((RsaOprfPrivateKey) key).publicKey().modulusLength() : 33;
        this.server = server;
        this.workers = workers;
    }

    /** A key, its directory (clients "bench" and delay-0 .. delay-(delayClients - 1)) and a server without a limit. */
    static LoadTarget create(Path root, String name, Integer workers, int delayClients) throws Exception {
        KeyServerInit.Options o = new KeyServerInit.Options().client("bench");
        for (int i = 0; i < delayClients; i++) {
            o.client("delay-" + i);
        }
        int bits = 0;
        switch (name) {
            case "rsa1024":
            case "rsa2048":
            case "rsa3072":
                bits = Integer.parseInt(name.substring(3));
                o.algorithm(KeyServerInit.OprfAlgorithm.RSA).rsaBits(bits);
                break;
            case "p256":
                o.algorithm(KeyServerInit.OprfAlgorithm.P256);
                break;
            default:
                throw new CommandLine.ParameterException(new CommandLine(new KeyServerLoad()), "unknown key " + name);
        }
        KeyServerDirectory d = KeyServerInit.create(root.resolve(name), o);
        OprfPrivateKey key = d.loadOprfKeys().get(d.currentKeyId());
        return new LoadTarget(name, bits, d, key, startServer(d, workers, "none"), workers);
    }

    private static KeyServer startServer(KeyServerDirectory d, Integer workers, String rateLimit) throws Exception {
        KeyServer.Builder b = KeyServer.builder().directory(d.root()).bindAddress("127.0.0.1").httpsPort(0).udpPort(0).rateLimit(rateLimit)
                // every step and connection opens a session (and connection) under the one certificate
                .maxSessionsPerClient(1_000_000).maxConnectionsPerClient(1_000_000);
        if (workers != null) {
            b.workerThreads(workers);
        }
        return b.start();
    }

    /** Another server on this key, with a rate limit (part e). */
    KeyServer startServer(String rateLimit) throws Exception {
        return startServer(dir, workers, rateLimit);
    }

    /** A client of {@code server} with the credentials of one of the directory's clients. */
    KeyServerClient.Builder client(String client, KeyServer server) {
        return KeyServerClient.builder().host("127.0.0.1").httpsPort(server.httpsPort()).connectTimeout(KeyServerLoad.HTTP_TIMEOUT)
                .credentials(dir.clientCertificate(client), dir.clientKey(client), dir.caCertificate());
    }

    /**
     * Round trips of one of the directory's clients with {@code server} on {@code transport} ("v1" or "v2"). OPRFv2
     * answers are awaited {@code timeoutMs}; OPRFv1 answers and KSInit {@link KeyServerLoad#HTTP_TIMEOUT} (TCP does not lose them).
     */
    Exchange exchange(String client, KeyServer server, String transport, int timeoutMs) throws Exception {
        boolean v1 = transport.equals("v1");
        return client(client, server).transport(v1 ? KeyServerClient.Transport.V1 : KeyServerClient.Transport.V2)
                .timeout(v1 ? KeyServerLoad.HTTP_TIMEOUT : Duration.ofMillis(timeoutMs)).sessionTimeout(KeyServerLoad.HTTP_TIMEOUT).openExchange();
    }

    String label() {
        return name.equals("p256") ? "P-256 VOPRF" : "RSA-" + bits;
    }

    /** Elements per OPRFv2 query that fit a 1400-byte datagram both ways (what KeyServerClient sends). */
    int datagramCapacity() {
        return ProtocolLimits.elementsPerDatagram(1400, elementLength, suite == Suite.P256_SHA256_VOPRF ? 64 : 0);
    }

    /** A real client on both transports must get the locally computed outputs. */
    void sanityCheck() throws Exception {
        byte[] input = "KeyServerLoad sanity check".getBytes(StandardCharsets.UTF_8);
        byte[] expected;
        try (LocalEvaluator local = LocalEvaluator.of(key)) {
            expected = local.evaluate(List.of(input)).get(0);
        }
        for (KeyServerClient.Transport tr : KeyServerClient.Transport.values()) {
            try (KeyServerClient c = client("bench", server).transport(tr).publicKey(dir.oprfPublicKey(keyId))
                    .timeout(Duration.ofSeconds(2)).cacheSize(0).build()) {
                if (!Arrays.equals(c.evaluate(input), expected)) {
                    throw new IllegalStateException("server answer does not match the local evaluation (" + tr + ")");
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop();
    }
}
