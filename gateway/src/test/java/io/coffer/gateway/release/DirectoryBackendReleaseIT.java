package io.coffer.gateway.release;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The release checks against {@code ./coffer serve} on its default backend: a local directory. */
class DirectoryBackendReleaseIT extends ReleaseChecks {
    @Override
    ShippedGateway startGateway(Path work) throws Exception {
        return ShippedGateway.start(work, List.of(), Map.of());
    }
}
