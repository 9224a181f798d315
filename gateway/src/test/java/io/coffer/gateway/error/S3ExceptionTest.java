package io.coffer.gateway.error;

import static org.assertj.core.api.Assertions.assertThat;

import io.coffer.sdk.CofferException;
import io.coffer.sdk.ErrorCode;
import io.coffer.sdk.blob.StorageFullException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class S3ExceptionTest {
    @Test
    void aFullStoreAnywhereInTheCauseChainIsA507WithTheStoresMessageNotAnInternalErrorClientsRetry() {
        StorageFullException full = new StorageFullException("PoR store full: 16 of 16 blocks used");
        S3Exception e = S3Exception.from(CofferException.of(ErrorCode.INTERNAL_ERROR, "upload failed",
                new UncheckedIOException(new IOException("put of a pack failed", full))));

        assertThat(e.error()).isEqualTo(S3ErrorCode.STORAGE_FULL);
        assertThat(e.error().status()).isEqualTo(507);
        assertThat(e.getMessage()).isEqualTo("PoR store full: 16 of 16 blocks used");
        assertThat(S3Exception.from(new IOException("disk")).error()).isEqualTo(S3ErrorCode.INTERNAL_ERROR);
    }
}
