package io.coffer.gateway.config;

import io.coffer.gateway.por.PorControl;
import io.coffer.sdk.Coffer;
import java.util.Optional;

/**
 * An open engine and, where the store keeps its packs in PoR, the PoR client's operations (audit, repair). Closing it
 * closes the engine, which closes the PoR store and its server handle with the backend.
 */
public record OpenStore(Coffer coffer, Optional<PorControl> por) implements AutoCloseable {
    @Override
    public void close() {
        coffer.close();
    }
}
