package io.coffer.keyserver.client;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.coffer.keyserver.oprf.Blinded;
import io.coffer.keyserver.oprf.KeyId;
import io.coffer.keyserver.oprf.Oprf;
import io.coffer.keyserver.oprf.OprfClient;
import io.coffer.keyserver.oprf.OprfException;
import io.coffer.keyserver.oprf.OprfPublicKey;
import io.coffer.keyserver.oprf.Suite;
import io.coffer.keyserver.pki.Pem;
import io.coffer.keyserver.wire.EvaluationRequest;
import io.coffer.keyserver.wire.EvaluationResponse;
import io.coffer.keyserver.wire.MalformedMessageException;
import io.coffer.keyserver.wire.ProtocolLimits;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;

/**
 * Client of a remote key server. {@link #evaluate} blinds the inputs, sends them as batched queries (OPRFv1
 * or OPRFv2), verifies every answer against the pinned OPRF public key (RSA: s^e == H(m); VOPRF: the batch
 * proof), unblinds, and returns one 32-byte key per input. An answer that fails verification never yields
 * a key. Recent results are cached (SHA-256 of the input -> key, bounded).
 *
 * <p>Each query gets up to {@code tries} attempts (default 3, as in DupLESS) of at most {@code timeout}
 * each (default 500 ms: the paper's tR is 100 ms on a quiet LAN; a first TLS handshake on a loaded host
 * needs more). Against a delaying server set the timeout above the server's delay (the paper's
 * max(tD, tR) / max(tU, tR)). Queries of one client are serialised (one pending query at a time, which is
 * what the active-client list of the delay limiters expects); batching is the way to throughput.
 */
public final class KeyServerClient implements OprfEvaluator {
    /** Which DupLESS transport to use. */
    public enum Transport {
        /** OPRFv1: each query is an HTTPS request over a persistent mutual-TLS connection. */
        V1,
        /** OPRFv2: KSInit over mutual TLS, then HMAC-authenticated UDP datagrams. */
        V2
    }

    /** Client configuration; each setter validates its value. */
    public static final class Builder {
        private String host = "localhost";
        private int httpsPort = 8443;
        private Transport transport = Transport.V2;
        private Path clientCertificate;
        private Path clientKey;
        private Path caCertificate;
        private OprfPublicKey publicKey;
        private Duration timeout = Duration.ofMillis(500);
        private Duration sessionTimeout;
        private Duration connectTimeout = Duration.ofSeconds(2);
        private int tries = 3;
        private long cacheSize = 100_000;
        private int maxBatch = 256;
        private int maxDatagram = 1400;
        private UnaryOperator<byte[]> answerFilter = UnaryOperator.identity();

        private Builder() {}

        /** Key server host name (must be in its certificate; default localhost). */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host);
            return this;
        }

        /** Key server HTTPS port (OPRFv1 and KSInit; the UDP port comes with the KSInit answer). */
        public Builder httpsPort(int port) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port must be in 1..65535");
            }
            this.httpsPort = port;
            return this;
        }

        public Builder transport(Transport transport) {
            this.transport = Objects.requireNonNull(transport);
            return this;
        }

        /** PEM files: this client's certificate and PKCS#8 key, and the key server's CA certificate. */
        public Builder credentials(Path clientCertificate, Path clientKey, Path caCertificate) {
            this.clientCertificate = Objects.requireNonNull(clientCertificate);
            this.clientKey = Objects.requireNonNull(clientKey);
            this.caCertificate = Objects.requireNonNull(caCertificate);
            return this;
        }

        /** The pinned OPRF public key; answers are verified against it and must name its key id. */
        public Builder publicKey(OprfPublicKey key) {
            this.publicKey = Objects.requireNonNull(key);
            return this;
        }

        /** The pinned OPRF public key from a SubjectPublicKeyInfo PEM file (oprf/KEYID.pub). */
        public Builder publicKey(Path pem) throws IOException, GeneralSecurityException {
            return publicKey(OprfPublicKey.fromSpki(Pem.read(Pem.PUBLIC_KEY, pem)));
        }

        /** Per-try answer timeout tR (default 500 ms). */
        public Builder timeout(Duration timeout) {
            if (timeout.isZero() || timeout.isNegative() || timeout.toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("timeout must be positive");
            }
            this.timeout = timeout;
            return this;
        }

        /** How long an OPRFv2 KSInit (a session over HTTPS) is awaited (default: the answer timeout). */
        public Builder sessionTimeout(Duration timeout) {
            if (timeout.isZero() || timeout.isNegative() || timeout.toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("session timeout must be positive");
            }
            this.sessionTimeout = timeout;
            return this;
        }

        /** TCP connect timeout for the HTTPS channel (default 2 s). */
        public Builder connectTimeout(Duration timeout) {
            if (timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("connect timeout must be positive");
            }
            this.connectTimeout = timeout;
            return this;
        }

        /** Attempts per query (1..10, default 3). */
        public Builder tries(int tries) {
            if (tries < 1 || tries > 10) {
                throw new IllegalArgumentException("tries must be in 1..10");
            }
            this.tries = tries;
            return this;
        }

        /** Most cached results (0 disables the cache; default 100000). */
        public Builder cacheSize(long entries) {
            if (entries < 0) {
                throw new IllegalArgumentException("cache size must not be negative");
            }
            this.cacheSize = entries;
            return this;
        }

        /** Most elements per OPRFv1 query; must not exceed the server's (default 256). */
        public Builder maxBatch(int n) {
            this.maxBatch = ProtocolLimits.checkMaxBatch(n);
            return this;
        }

        /** Largest OPRFv2 datagram; must not exceed the server's (default 1400). */
        public Builder maxDatagram(int bytes) {
            this.maxDatagram = ProtocolLimits.checkMaxDatagram(bytes);
            return this;
        }

        /** Test seam: rewrites each raw answer before it is parsed and verified. */
        Builder answerFilter(UnaryOperator<byte[]> filter) {
            this.answerFilter = Objects.requireNonNull(filter);
            return this;
        }

        public KeyServerClient build() throws IOException, GeneralSecurityException {
            if (clientCertificate == null || publicKey == null) {
                throw new IllegalStateException("credentials and publicKey are required");
            }
            return new KeyServerClient(this);
        }

        /**
         * The configured transport alone (needs only the credentials): raw encoded requests and answers, without
         * blinding, verification, cache or retries. For load generators that send pre-made blinded elements.
         */
        public Exchange openExchange() throws IOException, GeneralSecurityException {
            if (transport == Transport.V1) {
                return openHttpsExchange();
            }
            HttpsExchange init = https(sessionTimeout == null ? timeout : sessionTimeout);
            return new DatagramExchange(init, host, timeout, maxDatagram);
        }

        /** OPRFv1 round trips and KSInit over mutual TLS (needs only the credentials), answers awaited the timeout. */
        public HttpsExchange openHttpsExchange() throws IOException, GeneralSecurityException {
            return https(timeout);
        }

        private HttpsExchange https(Duration answerTimeout) throws IOException, GeneralSecurityException {
            if (clientCertificate == null) {
                throw new IllegalStateException("credentials are required");
            }
            SSLContext tls = ClientTls.context(clientCertificate, clientKey, caCertificate);
            return new HttpsExchange(tls, host, httpsPort, connectTimeout, answerTimeout, maxBatch);
        }
    }

    private final OprfClient oprf;
    private final Exchange exchange;
    private final int tries;
    private final Cache<ByteBuffer, byte[]> cache;
    private final ReentrantLock queryLock = new ReentrantLock();
    private final UnaryOperator<byte[]> answerFilter;
    private final Transport transport;

    private KeyServerClient(Builder b) throws IOException, GeneralSecurityException {
        this.oprf = Oprf.client(b.publicKey);
        if (!oprf.suite().verifiable()) {
            throw new GeneralSecurityException("remote suite must be verifiable");
        }
        this.exchange = b.openExchange();
        this.transport = b.transport;
        this.tries = b.tries;
        this.cache = b.cacheSize == 0 ? null : Caffeine.newBuilder().maximumSize(b.cacheSize).build();
        this.answerFilter = b.answerFilter;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public KeyId keyId() {
        return oprf.keyId();
    }

    public Suite suite() {
        return oprf.suite();
    }

    public Transport transport() {
        return transport;
    }

    /** Key for one input. */
    public byte[] evaluate(byte[] input) throws KeyServerException {
        return evaluate(List.of(input)).get(0);
    }

    @Override
    public List<byte[]> evaluate(List<byte[]> inputs) throws KeyServerException {
        List<ByteBuffer> digests = new ArrayList<>(inputs.size());
        Map<ByteBuffer, byte[]> missing = new LinkedHashMap<>();
        Map<ByteBuffer, byte[]> found = new HashMap<>();
        for (byte[] in : inputs) {
            ByteBuffer d = ByteBuffer.wrap(sha256(in));
            digests.add(d);
            byte[] cached = cache == null ? null : cache.getIfPresent(d);
            if (cached != null) {
                found.put(d, cached);
            } else {
                missing.putIfAbsent(d, in);
            }
        }
        if (!missing.isEmpty()) {
            List<ByteBuffer> keys = new ArrayList<>(missing.keySet());
            List<byte[]> values = new ArrayList<>(missing.values());
            int per = exchange.capacity(oprf.elementLength(), oprf.suite() == Suite.P256_SHA256_VOPRF ? 64 : 0);
            queryLock.lock();
            try {
                for (int from = 0; from < values.size(); from += per) {
                    int to = Math.min(values.size(), from + per);
                    List<byte[]> outputs = query(values.subList(from, to));
                    for (int i = from; i < to; i++) {
                        found.put(keys.get(i), outputs.get(i - from));
                    }
                }
            } finally {
                queryLock.unlock();
            }
            if (cache != null) {
                for (ByteBuffer k : keys) {
                    cache.put(k, found.get(k));
                }
            }
        }
        List<byte[]> result = new ArrayList<>(inputs.size());
        for (ByteBuffer d : digests) {
            result.add(found.get(d).clone());
        }
        return result;
    }

    private List<byte[]> query(List<byte[]> inputs) throws KeyServerException {
        Blinded blinded;
        try {
            blinded = oprf.blind(inputs);
        } catch (OprfException e) {
            throw new KeyServerException(KeyServerException.Reason.PROTOCOL, "input cannot be blinded", e);
        }
        byte[] request = new EvaluationRequest(oprf.suite(), oprf.keyId(), blinded.elements()).encode();
        EvaluationResponse resp = send(request);
        if (!resp.keyId().equals(oprf.keyId()) || resp.suite() != oprf.suite()) {
            throw new KeyServerException(KeyServerException.Reason.PROTOCOL,
                    "answer names key " + resp.keyId() + " / " + resp.suite() + ", expected " + oprf.keyId() + " / " + oprf.suite());
        }
        if (resp.evaluation().size() != inputs.size()) {
            throw new KeyServerException(KeyServerException.Reason.PROTOCOL, "answer has the wrong number of elements");
        }
        try {
            return oprf.finalizeOutputs(blinded, resp.evaluation());
        } catch (OprfException e) {
            throw new KeyServerException(KeyServerException.Reason.VERIFICATION_FAILED, "key server answer failed verification");
        }
    }

    /** Sends with retries; returns an OK answer or throws. */
    private EvaluationResponse send(byte[] request) throws KeyServerException {
        Exception last = null;
        for (int attempt = 0; attempt < tries; attempt++) {
            byte[] raw;
            try {
                raw = answerFilter.apply(exchange.exchange(request));
            } catch (HttpsExchange.ProtocolFailure e) {
                throw new KeyServerException(KeyServerException.Reason.PROTOCOL, e.getMessage());
            } catch (IOException e) {
                last = e;
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KeyServerException(KeyServerException.Reason.UNAVAILABLE, "interrupted", e);
            }
            EvaluationResponse resp;
            try {
                resp = EvaluationResponse.decode(raw);
            } catch (MalformedMessageException e) {
                throw new KeyServerException(KeyServerException.Reason.PROTOCOL, "malformed answer: " + e.getMessage());
            }
            switch (resp.status()) {
                case OK:
                    return resp;
                case RATE_LIMITED:
                case BUSY:
                    throw new KeyServerException(KeyServerException.Reason.RATE_LIMITED, "key server refused: " + resp.status());
                case SERVER_ERROR:
                    last = new IOException("server error");
                    continue;
                default:
                    throw new KeyServerException(KeyServerException.Reason.PROTOCOL, "key server answered " + resp.status());
            }
        }
        throw new KeyServerException(KeyServerException.Reason.UNAVAILABLE,
                "no answer after " + tries + " tries" + (last == null ? "" : ": " + last.getClass().getSimpleName()), last);
    }

    private static byte[] sha256(byte[] in) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(in);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        queryLock.lock();
        try {
            exchange.close();
        } finally {
            queryLock.unlock();
        }
    }

    @Override
    public String toString() {
        return "KeyServerClient[" + transport + ", " + oprf.suite() + ", key " + oprf.keyId() + "]";
    }
}
