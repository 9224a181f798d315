package io.coffer.gateway.release;

import io.coffer.sdk.testing.S3ServerFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The release checks against {@code ./coffer serve --backend s3} on a third-party S3 server: s3proxy (its filesystem
 * provider, SigV4) on a loopback port of the test JVM. The gateway is the separate process; path-style addressing, as
 * a local S3 server needs.
 */
class S3BackendReleaseIT extends ReleaseChecks {
    @Override
    ShippedGateway startGateway(Path work) throws Exception {
        S3ServerFixture s3 = S3ServerFixture.start();
        return ShippedGateway.start(work, List.of("--backend", "s3", "--s3-endpoint", s3.endpoint().toString(),
                "--s3-bucket", s3.createBucket(), "--s3-path-style"), Map.of(
                "COFFER_BACKEND_ACCESS_KEY", s3.accessKey(),
                "COFFER_BACKEND_SECRET_KEY", s3.secretKey()));
    }
}
