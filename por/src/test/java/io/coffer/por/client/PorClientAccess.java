package io.coffer.por.client;

import io.coffer.por.audit.AuditVerdict;
import io.coffer.por.server.PorServer;
import java.security.SecureRandom;

/** Runs an audit of {@code server} with a client's state, as the same client would through another connection. */
final class PorClientAccess {
    private PorClientAccess() {}

    static AuditVerdict auditThrough(PorServer server, PorClient client) {
        return new PorClient(server, client.state(), new SecureRandom(), s -> { }).audit();
    }
}
