package io.coffer.keyserver.transport;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * OPRFv2 sessions granted by KSInit: id, key, client identity, expiry and the last accepted sequence
 * number. Sequence numbers start at 1, stay below 2^63 and must be strictly increasing (no reorder
 * window): a datagram whose number is not greater than the last accepted one is a replay. The table is capped; expired sessions are swept.
 */
public final class Sessions {
    /** One granted session. */
    public static final class Session {
        private final byte[] id;
        private final byte[] key;
        private final String client;
        private final long expiresAtNanos;
        private long lastSequence;

        Session(byte[] id, byte[] key, String client, long expiresAtNanos) {
            this.id = id;
            this.key = key;
            this.client = client;
            this.expiresAtNanos = expiresAtNanos;
        }

        public String client() {
            return client;
        }

        byte[] key() {
            return key;
        }

        boolean expired(long now) {
            return now - expiresAtNanos >= 0;
        }

        /** Accepts the number if it is greater than every accepted one before (and than 0). */
        synchronized boolean advance(long sequence) {
            if (sequence <= lastSequence) {
                return false;
            }
            lastSequence = sequence;
            return true;
        }

        @Override
        public String toString() {
            return "Session[" + client + "]";
        }
    }

    private final Map<ByteBuffer, Session> sessions = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final Duration lifetime;
    private final int maxSessions;
    private final LongSupplier clock;

    public Sessions(Duration lifetime, int maxSessions, LongSupplier nanoClock) {
        if (lifetime.getSeconds() < 1 || maxSessions < 1) {
            throw new IllegalArgumentException("session lifetime >= 1s and maxSessions >= 1");
        }
        this.lifetime = lifetime;
        this.maxSessions = maxSessions;
        this.clock = nanoClock;
    }

    /** Grants a new session to a client, or returns null when the table is full even after a sweep. */
    public SessionGrant create(String client, int udpPort) {
        if (sessions.size() >= maxSessions) {
            sweep();
            if (sessions.size() >= maxSessions) {
                return null;
            }
        }
        byte[] id = new byte[SessionGrant.ID_LENGTH];
        byte[] key = new byte[SessionGrant.KEY_LENGTH];
        random.nextBytes(id);
        random.nextBytes(key);
        sessions.put(ByteBuffer.wrap(id), new Session(id, key, client, clock.getAsLong() + lifetime.toNanos()));
        return new SessionGrant(id, key, (int) lifetime.getSeconds(), udpPort);
    }

    Session lookup(byte[] id) {
        return sessions.get(ByteBuffer.wrap(id));
    }

    void remove(byte[] id) {
        sessions.remove(ByteBuffer.wrap(id));
    }

    /** Removes expired sessions. */
    public void sweep() {
        long now = clock.getAsLong();
        sessions.values().removeIf(s -> s.expired(now));
    }

    public int size() {
        return sessions.size();
    }

    long now() {
        return clock.getAsLong();
    }
}
